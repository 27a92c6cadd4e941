import { chainNames } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { probeChains } from "./probeChains";

const keyed = "https://rpc.provider.example/v2/SECRET-KEY";
const second = "https://other.example/rpc";

/** Every chain with the same two endpoints: the first refuses, the second answers as given. */
function rpcUrlsOf(urls: string[]) {
  return Object.fromEntries(chainNames.map((name) => [name, urls])) as Record<
    (typeof chainNames)[number],
    string[]
  >;
}

describe("probeChains", () => {
  it("falls back to the next endpoint and reports the block number it answered", async () => {
    const health = await probeChains({
      rpcUrls: rpcUrlsOf([keyed, second]),
      fetch: async (url) => {
        if (String(url) === keyed) throw new TypeError("fetch failed");
        return Response.json({ jsonrpc: "2.0", id: 1, result: "0x10" });
      },
    });
    expect(health.every((chain) => chain.reachable && chain.blockNumber === "16")).toBe(true);
  });

  it("names failed endpoints by their place in the list, never by host, path or key", async () => {
    const health = await probeChains({
      rpcUrls: rpcUrlsOf([keyed, second]),
      fetch: async (url) => {
        if (String(url) === keyed) throw new TypeError("fetch failed");
        return Response.json({ jsonrpc: "2.0", id: 1, error: { code: -32000, message: "no" } });
      },
    });
    const [base] = health;
    expect(base).toMatchObject({ reachable: false, blockNumber: null });
    expect(base?.error).toBe("endpoint 1: fetch failed; endpoint 2: no block number in the answer");
    for (const chain of health) expect(chain.error).not.toMatch(/example|SECRET/);
  });
});
