import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { readChannelBalanceAndTotalClaimed } from "@x402/evm/batch-settlement/client";
import { type Address, encodeAbiParameters, type Hex } from "viem";
import { describe, expect, it } from "vitest";
import { createPageChainReader } from "./createPageChainReader";

const channelId = `0x${"ab".repeat(32)}` as const;

describe("createPageChainReader", () => {
  it("reads the escrow's channel state for the x402 client through one eth_call on Base", async () => {
    const calls: { chainId: number; to: Address; data: Hex }[] = [];
    const readContract = createPageChainReader(async (chainId, to, data) => {
      calls.push({ chainId, to, data });
      return encodeAbiParameters([{ type: "uint128" }, { type: "uint128" }], [50_000n, 20_000n]);
    });
    const signer = {
      address: `0x${"1".repeat(40)}` as Address,
      signTypedData: async () => "0x" as Hex,
      readContract,
    };
    expect(await readChannelBalanceAndTotalClaimed(signer, channelId)).toEqual([50_000n, 20_000n]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.chainId).toBe(8453);
    expect(calls[0]?.to.toLowerCase()).toBe(BATCH_SETTLEMENT_ADDRESS.toLowerCase());
    expect(calls[0]?.data).toContain(channelId.slice(2));
  });

  it("fails when the wallet cannot read (another chain): the read is not retried", async () => {
    let asked = 0;
    const readContract = createPageChainReader(async () => {
      asked += 1;
      throw new Error("The wallet is on chain 1, not 8453.");
    });
    await expect(
      readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: [
          {
            type: "function",
            name: "channels",
            stateMutability: "view",
            inputs: [{ name: "id", type: "bytes32" }],
            outputs: [{ type: "uint128" }, { type: "uint128" }],
          },
        ],
        functionName: "channels",
        args: [channelId],
      }),
    ).rejects.toThrow(/chain 1/);
    expect(asked).toBe(1);
  });
});
