import { describe, expect, it } from "vitest";
import { visibleEnds } from "./visibleEnds";

describe("visibleEnds", () => {
  it("keeps 0x, the first 4 and the last 4 hex characters as written", () => {
    expect(visibleEnds("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")).toBe("0x8335…2913");
  });
});
