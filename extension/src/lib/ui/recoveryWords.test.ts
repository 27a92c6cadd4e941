import { describe, expect, it } from "vitest";
import { recoveryWords } from "./recoveryWords";

describe("recoveryWords", () => {
  it("says nothing was charged only for the server's proof, and colours a forged report danger", () => {
    const states = ["unknown", "pending", "not_charged", "forged", "rejected", "failed"] as const;
    const titles = states.map((state) => recoveryWords(state).title);
    expect(titles.filter((t) => /nothing was charged/i.test(t))).toEqual([
      recoveryWords("not_charged").title,
    ]);
    expect(recoveryWords("forged").level).toBe("danger");
    expect(recoveryWords("unknown").title).toMatch(/unknown/);
  });
});
