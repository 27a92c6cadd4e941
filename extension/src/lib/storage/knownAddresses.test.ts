import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { exampleHistoryEntry } from "./exampleHistoryEntry";
import { knownAddresses } from "./knownAddresses";

const a: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const b: Address = "0x000000000000000000000000000000000000dEaD";

describe("knownAddresses", () => {
  it("merges sent and checked addresses without duplicates (case-insensitive)", () => {
    const checkedAt = new Date();
    const history = [a, b].map((address) => exampleHistoryEntry({ address, checkedAt }));
    const sent = [{ address: a.toLowerCase() as `0x${string}`, at: "2025-01-01T00:00:00Z" }];
    expect(knownAddresses(history, sent)).toEqual([a.toLowerCase(), b]);
  });
});
