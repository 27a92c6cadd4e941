import { chainNames, chains, multicall3Address } from "@presend/shared/chains/chains";
import { decodeFunctionData, getAddress, multicall3Abi } from "viem";
import { describe, expect, it } from "vitest";
import {
  aggregate3ValueAbi,
  buildFactsBatch,
  encodeCallDataDirectly,
  entryPoints,
  maxBatchEntries,
  receiveSimulationSender,
  receiveSimulationWei,
} from "./buildFactsBatch";

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
      "eth_getStorageAt",
      "eth_call",
      "eth_call",
    ]);
    expect(batch.length).toBeLessThanOrEqual(maxBatchEntries);
    expect(new Set(batch.map((entry) => entry.id)).size).toBe(batch.length);
    expect(batch[1]?.params).toEqual([getAddress(who), "latest"]);
  });

  it("puts stablecoin balances and classification probes in one allowFailure aggregate3 call", () => {
    const call = buildFactsBatch(who, "base")[6]?.params[0] as {
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
      ...Array(10).fill(getAddress(who)),
      ...Object.values(entryPoints),
    ]);
    expect(calls.every((c) => c.allowFailure)).toBe(true);
  });

  it("leaves out the bridged USDC call on a chain without one", () => {
    const call = buildFactsBatch(who, "ethereum")[6]?.params[0] as { data: `0x${string}` };
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    expect((args[0] as readonly unknown[]).length).toBe(15);
  });

  it("simulates a receive from a sender funded only by the state override", () => {
    const [call, block, override] = (buildFactsBatch(who, "base")[9]?.params ?? []) as [
      { from: string; to: string; value: string; data: `0x${string}` },
      string,
      Record<string, { balance: string }>,
    ];
    expect(call.from).toBe(receiveSimulationSender);
    expect(call.to).toBe(multicall3Address);
    expect(BigInt(call.value)).toBe(receiveSimulationWei);
    expect(block).toBe("latest");
    expect(Object.keys(override)).toEqual([receiveSimulationSender]);
    const { functionName, args } = decodeFunctionData({ abi: aggregate3ValueAbi, data: call.data });
    expect(functionName).toBe("aggregate3Value");
    const [before, transfer, after] = args[0];
    expect([before?.target, transfer?.target, after?.target]).toEqual([
      multicall3Address,
      getAddress(who),
      multicall3Address,
    ]);
    expect(transfer?.value).toBe(receiveSimulationWei);
  });
});

describe("buildFactsBatch call data from the per-chain template", () => {
  it.each(chainNames)("equals a direct encoding on %s, for several addresses", (chain) => {
    for (const address of [who, "0x0000000000000000000000000000000000000001", multicall3Address]) {
      const batch = buildFactsBatch(address as `0x${string}`, chain);
      const direct = encodeCallDataDirectly(getAddress(address), chain);
      const data = (index: number) =>
        (batch[index]?.params[0] as { data: string } | undefined)?.data;
      expect([data(6), data(8), data(9)]).toEqual([
        direct.aggregate,
        direct.codeHashProbe,
        direct.simulation,
      ]);
    }
  });
});
