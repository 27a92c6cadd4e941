import { describe, expect, it } from "vitest";
import { knownAddresses } from "./knownAddresses";
import type { HistoryEntry } from "./schemas";

const a = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const b = "0x000000000000000000000000000000000000dEaD";

describe("knownAddresses", () => {
  it("merges sent and checked addresses without duplicates (case-insensitive)", () => {
    const history = [{ address: a }, { address: b }] as unknown as HistoryEntry[];
    const sent = [{ address: a.toLowerCase() as `0x${string}`, at: "2025-01-01T00:00:00Z" }];
    expect(knownAddresses(history, sent)).toEqual([a.toLowerCase(), b]);
  });
});
