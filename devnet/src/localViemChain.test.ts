import { chains, multicall3Address } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { localViemChain } from "./localViemChain";

describe("localViemChain", () => {
  it("keeps the chain id and points RPC and Multicall3 at the local world", () => {
    const chain = localViemChain("arbitrum", "http://127.0.0.1:9999");
    expect(chain.id).toBe(chains.arbitrum.id);
    expect(chain.rpcUrls.default.http).toEqual(["http://127.0.0.1:9999"]);
    // No blockCreated: viem would refuse multicall on a young local chain.
    expect(chain.contracts?.multicall3).toEqual({ address: multicall3Address });
  });
});
