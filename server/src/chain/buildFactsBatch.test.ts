import { chains, multicall3Address } from "@presend/shared/chains/chains";
import { decodeFunctionData, getAddress, multicall3Abi } from "viem";
import { describe, expect, it } from "vitest";
import { buildFactsBatch } from "./buildFactsBatch";

const who = "0xd8da6bf26964af9d7eed9e03e53415d37aa96045";

describe("buildFactsBatch", () => {
  it("asks for every fact in one batch with unique ids, the address in EIP-55 form", () => {
    const batch = buildFactsBatch(who, "base");
    expect(batch.map((entry) => entry.method)).toEqual([
      "eth_chainId",
      "eth_getCode",
      "eth_getTransactionCount",
      "eth_getBalance",
      "eth_gasPrice",
      "eth_blockNumber",
      "eth_call",
    ]);
    expect(new Set(batch.map((entry) => entry.id)).size).toBe(batch.length);
    expect(batch[1]?.params).toEqual([getAddress(who), "latest"]);
  });

  it("puts stablecoin balances and classification probes in one allowFailure aggregate3 call", () => {
    const call = buildFactsBatch(who, "base").at(-1)?.params[0] as {
      to: string;
      data: `0x${string}`;
    };
    expect(call.to).toBe(multicall3Address);
    const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    expect(functionName).toBe("aggregate3");
    const calls = args[0] as readonly { target: string; allowFailure: boolean }[];
    expect(calls.map((c) => c.target)).toEqual([
      chains.base.usdc.address,
      chains.base.usdt.address,
      chains.base.usdcBridged?.address,
      getAddress(who),
      getAddress(who),
      getAddress(who),
    ]);
    expect(calls.every((c) => c.allowFailure)).toBe(true);
  });

  it("leaves out the bridged USDC call on a chain without one", () => {
    const call = buildFactsBatch(who, "ethereum").at(-1)?.params[0] as { data: `0x${string}` };
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    expect((args[0] as readonly unknown[]).length).toBe(5);
  });
});
