import { describe, expect, it } from "vitest";
import { solanaAddressProblem } from "./solanaAddress";

describe("solanaAddressProblem", () => {
  it.each([
    ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", undefined],
    ["11111111111111111111111111111111", undefined],
    ["0xde000000000000000000000000000000000001c1", "not base58"],
    ["EPjFWdd5AufqSSqeM2qN1xzy", "decodes to 18 bytes, not 32"],
    ["", "empty"],
  ])("%s -> %s", (value, problem) => {
    expect(solanaAddressProblem(value)).toBe(problem);
  });
});
