import {
  chainNames,
  chains,
  gasPriceOracleAddress,
  multicall3Address,
} from "@presend/shared/chains/chains";
import {
  decodeFunctionData,
  getAddress,
  type Hex,
  multicall3Abi,
  numberToHex,
  toFunctionSelector,
} from "viem";
import { describe, expect, it } from "vitest";
import {
  buildFactsBatch,
  encodeCallDataDirectly,
  entryPoints,
  factsBatchIds,
  gasPriceOracleAbi,
  maxBatchEntries,
  multicall3GettersAbi,
  probeKeys,
  receiveSimulationSender,
  receiveSimulationWei,
  type SimulateV1Params,
} from "./buildFactsBatch";
import { typicalTransfers } from "./typicalTransfers";

const who = "0xd8da6bf26964af9d7eed9e03e53415d37aa96045";

describe("buildFactsBatch", () => {
  it("asks for every fact in one batch with unique ids, the address in EIP-55 form", () => {
    const batch = buildFactsBatch(who, "base");
    expect(batch.map((entry) => entry.method)).toEqual([
      "eth_getCode",
      "eth_getTransactionCount",
      "eth_gasPrice",
      "eth_call",
      "eth_getStorageAt",
      "eth_call",
      "eth_simulateV1",
    ]);
    expect(batch.length).toBeLessThanOrEqual(maxBatchEntries);
    expect(new Set(batch.map((entry) => entry.id)).size).toBe(batch.length);
    expect(batch[0]?.params).toEqual([getAddress(who), "latest"]);
    // Room beside it for the history's log queries (3 with a sender) in the same batch.
    expect(batch.length + 3).toBeLessThanOrEqual(maxBatchEntries);
  });

  it("puts chain id, head, balances and classification probes in one allowFailure aggregate3 call", () => {
    const call = buildFactsBatch(who, "base")[3]?.params[0] as {
      to: string;
      data: `0x${string}`;
    };
    expect(call.to).toBe(multicall3Address);
    const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    expect(functionName).toBe("aggregate3");
    const calls = args[0] as readonly {
      target: string;
      allowFailure: boolean;
      callData: `0x${string}`;
    }[];
    expect(calls.map((c) => c.target)).toEqual([
      ...Array(3).fill(multicall3Address),
      chains.base.usdc.address,
      chains.base.usdt.address,
      chains.base.usdcBridged?.address,
      ...Object.values(entryPoints),
      gasPriceOracleAddress,
      gasPriceOracleAddress,
      multicall3Address,
    ]);
    // Base is an OP-stack chain: the oracle prices the L1 data fee of the two sends presend prices.
    const l1Fees = calls.slice(-3, -1).map((c) => {
      const decoded = decodeFunctionData({ abi: gasPriceOracleAbi, data: c.callData });
      return [decoded.functionName, decoded.args];
    });
    const transfers = typicalTransfers(who, chains.base);
    expect(l1Fees).toEqual([
      ["getL1Fee", [transfers.nativeTransfer]],
      ["getL1Fee", [transfers.tokenTransfer]],
    ]);
    expect(calls.every((c) => c.allowFailure)).toBe(true);
    // The probes of the address sit in an inner aggregate3, last: code that burns every call's
    // gas can cost that call, never the chain id, head and balances around it.
    const inner = decodeFunctionData({ abi: multicall3Abi, data: calls.at(-1)?.callData ?? "0x" });
    expect(inner.functionName).toBe("aggregate3");
    const probes = inner.args[0] as readonly {
      target: string;
      allowFailure: boolean;
      callData: `0x${string}`;
    }[];
    expect(probes.map((c) => c.target)).toEqual(Array(14).fill(getAddress(who)));
    expect(probes.every((c) => c.allowFailure)).toBe(true);
    // Last, proxiableUUID(): a UUPS implementation answers it only when called as itself.
    expect(probes.at(-1)?.callData).toBe(toFunctionSelector("proxiableUUID()"));
    const getters = calls.slice(0, 3).map((c) => {
      const decoded = decodeFunctionData({ abi: multicall3GettersAbi, data: c.callData });
      return [decoded.functionName, decoded.args ?? []];
    });
    expect(getters).toEqual([
      ["getChainId", []],
      ["getBlockNumber", []],
      ["getEthBalance", [getAddress(who)]],
    ]);
  });

  it("asks no GasPriceOracle on a chain that is not OP-stack", () => {
    const call = buildFactsBatch(who, "arbitrum")[3]?.params[0] as { data: `0x${string}` };
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    const targets = (args[0] as readonly { target: string }[]).map((c) => c.target);
    expect(targets).not.toContain(gasPriceOracleAddress);
  });

  it("leaves out the bridged USDC call on a chain without one", () => {
    const call = buildFactsBatch(who, "ethereum")[3]?.params[0] as { data: `0x${string}` };
    const { args } = decodeFunctionData({ abi: multicall3Abi, data: call.data });
    expect((args[0] as readonly unknown[]).length).toBe(9);
  });

  it("simulates a plain native send from an EOA funded only by the state override", () => {
    const [options, block] = (buildFactsBatch(who, "base")[6]?.params ?? []) as SimulateV1Params;
    expect(block).toBe("latest");
    expect(options.traceTransfers).toBe(true);
    expect(options.validation).toBe(false);
    const [simulated] = options.blockStateCalls;
    expect(Object.keys(simulated?.stateOverrides ?? {})).toEqual([receiveSimulationSender]);
    const [before, transfer, after] = simulated?.calls ?? [];
    // The transfer goes straight from the sender to the address: no contract in between, so
    // msg.sender == tx.origin and msg.sender has no code, as in the real send.
    expect(transfer).toEqual({
      from: receiveSimulationSender,
      to: getAddress(who),
      value: numberToHex(receiveSimulationWei),
    });
    for (const read of [before, after]) {
      expect(read?.to).toBe(multicall3Address);
      const { functionName, args } = decodeFunctionData({
        abi: multicall3Abi,
        data: read?.data ?? "0x",
      });
      expect([functionName, args]).toEqual(["getEthBalance", [getAddress(who)]]);
    }
  });

  it("simulates from the sender when one is given", () => {
    const sender = "0x9cb2e6859f097014298cc31c8d39d4217502960f";
    const [options] = (buildFactsBatch(who, "base", { sender })[6]?.params ??
      []) as SimulateV1Params;
    const [simulated] = options.blockStateCalls;
    expect(Object.keys(simulated?.stateOverrides ?? {})).toEqual([getAddress(sender)]);
    expect(simulated?.calls[1]?.from).toBe(getAddress(sender));
  });
});

describe("buildFactsBatch call data from the per-chain template", () => {
  it.each(chainNames)("equals a direct encoding on %s, for several addresses", (chain) => {
    for (const address of [who, "0x0000000000000000000000000000000000000001", multicall3Address]) {
      const batch = buildFactsBatch(address as `0x${string}`, chain);
      const direct = encodeCallDataDirectly(getAddress(address), chain);
      const data = (index: number) =>
        (batch[index]?.params[0] as { data: string } | undefined)?.data;
      expect([data(3), data(5)]).toEqual([direct.aggregate, direct.codeHashProbe]);
    }
  });

  it("leaves out what the address decides the size of when asked lean", () => {
    const who = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    const full = buildFactsBatch(who, "base");
    const lean = buildFactsBatch(who, "base", { lean: true });
    expect(full.map((entry) => entry.method)).toContain("eth_simulateV1");
    expect(lean.map((entry) => entry.method)).not.toContain("eth_simulateV1");
    // The outer aggregate3 keeps every sub-call; the probes' inner one asks nothing.
    const outer = (batch: typeof full) => {
      const call = batch.find((entry) => entry.id === factsBatchIds.multicall);
      if (!call) throw new Error("no aggregate3 entry");
      const data = (call.params[0] as { data: Hex }).data;
      return decodeFunctionData({ abi: multicall3Abi, data }).args[0] as readonly {
        callData: Hex;
      }[];
    };
    expect(outer(lean)).toHaveLength(outer(full).length);
    const innerOf = (batch: typeof full) =>
      decodeFunctionData({ abi: multicall3Abi, data: outer(batch).at(-1)?.callData ?? "0x" })
        .args[0] as readonly unknown[];
    expect(innerOf(full)).toHaveLength(probeKeys.length);
    expect(innerOf(lean)).toEqual([]);
  });
});
