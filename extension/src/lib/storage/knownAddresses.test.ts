import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { exampleHistoryEntry } from "./exampleHistoryEntry";
import { knownAddresses } from "./knownAddresses";

const a: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const b: Address = "0x000000000000000000000000000000000000dEaD";
const c: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const d: Address = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";

describe("knownAddresses", () => {
  it("merges sent and checked addresses without duplicates (case-insensitive)", () => {
    const checkedAt = new Date();
    const history = [a, b].map((address) => exampleHistoryEntry({ address, checkedAt }));
    const sent = [{ address: a.toLowerCase() as `0x${string}`, at: "2025-01-01T00:00:00Z" }];
    expect(knownAddresses(history, sent)).toEqual([a.toLowerCase(), b]);
  });

  it("keeps each list's newest-first order, sent-to addresses ahead of checked ones", () => {
    const checkedAt = new Date();
    const history = [b, c, a].map((address) => exampleHistoryEntry({ address, checkedAt }));
    const sent = [
      { address: d, at: "2025-01-02T00:00:00Z" },
      { address: a, at: "2025-01-01T00:00:00Z" },
    ];
    expect(knownAddresses(history, sent)).toEqual([d, a, b, c]);
  });
});
