import { describe, expect, it } from "vitest";
import { ageInWords } from "./ageInWords";

describe("ageInWords", () => {
  it("says how long ago, in the words a person uses", () => {
    const at = "2025-06-01T12:00:00Z";
    expect(ageInWords(at, Date.parse("2025-06-01T12:00:40Z"))).toBe("just now");
    expect(ageInWords(at, Date.parse("2025-06-01T12:04:10Z"))).toBe("4 min ago");
    expect(ageInWords(at, Date.parse("2025-06-01T14:30:00Z"))).toBe("2 h ago");
  });
});
