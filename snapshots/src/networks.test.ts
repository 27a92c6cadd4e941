import { describe, expect, it } from "vitest";
import { normalizeNetwork } from "./networks";

describe("normalizeNetwork", () => {
  it.each([
    ["base", "BSE"],
    ["eip155:8453", "BSE"],
    ["eip155:84532", "BSP"],
    ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "SOL"],
    ["Arbitrum", "ARB"],
    ["eip155:137", "POL"],
    ["avalanche", "AVX"],
  ])("%s -> %s (x402 v1 names and v2 CAIP-2 ids)", (raw, code) => {
    expect(normalizeNetwork(raw)?.code).toBe(code);
  });

  it("returns undefined for a network it does not know", () => {
    expect(normalizeNetwork("tron")).toBeUndefined();
  });
});
