import { gasPriceOracleAddress, multicall3Address } from "@presend/shared/chains/chains";
import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  type Hex,
  hexToBigInt,
  multicall3Abi,
  numberToHex,
  pad,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { type JsonRpcRequest, multicall3GettersAbi } from "./buildFactsBatch";

// Test support: answers a facts batch the way an RPC node would, from a described chain state.
// It decodes the aggregate3 call it receives, so tests do not depend on the reader's call layout.

export type FakeCallResult = { success: boolean; returnData: Hex };

export type FakeChainState = {
  chainId: number;
  code?: Hex;
  nonce?: bigint;
  balance?: bigint;
  gasPrice?: bigint;
  blockNumber?: bigint;
  /** Answers one Multicall3 sub-call; the default is an address without code (success, "0x"). */
  call?: (target: Address, callData: Hex) => FakeCallResult | undefined;
  /** The EIP-1967 implementation slot (default empty). */
  implementationSlot?: Hex;
  /** What the delegate code-hash probe returns (default 32 zero bytes: no account). */
  delegateCodeHash?: Hex;
  /** How the simulated transfer goes (default kept); "refused" answers a JSON-RPC error. */
  receive?: "kept" | "rejected" | "forwarded" | "refused";
  /** Where a forwarded deposit goes, as the node's transfer trace shows it. */
  forwardTo?: Address;
  /** Gas the simulated transfer uses (default 21000; null: the node does not say). */
  receiveGas?: bigint | null;
  /**
   * The address burns all the gas of every call (as a precompile given input it refuses): the
   * aggregate3 the probes run in fails, the rest of the outer one answers.
   */
  probesRunOutOfGas?: boolean;
  /** Methods answered with a JSON-RPC error instead (e.g. "eth_getStorageAt"). */
  failing?: string[];
  /**
   * What the OP-stack GasPriceOracle's getL1Fee answers for any transaction (default 0); null:
   * no oracle at the predeploy (empty data).
   */
  l1Fee?: bigint | null;
};

const nativeTransferLog = (from: Address, to: Address, amount: bigint) => ({
  address: "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
  topics: [
    "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
    pad(from),
    pad(to),
  ],
  data: numberToHex(amount, { size: 32 }),
});

/** What eth_simulateV1 answers for the reader's three calls: balance, transfer, balance. */
function answerSimulation(state: FakeChainState, params: unknown[]): unknown {
  const [{ blockStateCalls }] = params as [
    { blockStateCalls: { calls: { from?: Address; to: Address; value?: Hex }[] }[] },
  ];
  const transfer = blockStateCalls[0]?.calls[1];
  const value = hexToBigInt(transfer?.value ?? "0x0");
  const before = state.balance ?? 0n;
  const after =
    state.receive === "forwarded" || state.receive === "rejected" ? before : before + value;
  const read = (amount: bigint) => ({
    status: "0x1",
    returnData: encodeAbiParameters([{ type: "uint256" }], [amount]),
    logs: [],
  });
  const target = transfer?.to ?? zeroAddress;
  const logs = [nativeTransferLog(transfer?.from ?? zeroAddress, target, value)];
  if (state.receive === "forwarded" && state.forwardTo) {
    logs.push(nativeTransferLog(target, state.forwardTo, value));
  }
  const sent =
    state.receive === "rejected"
      ? { status: "0x0", returnData: "0x", logs: [], error: { code: 3, message: "reverted" } }
      : {
          status: "0x1",
          returnData: "0x",
          logs,
          ...(state.receiveGas !== null && { gasUsed: numberToHex(state.receiveGas ?? 21_000n) }),
        };
  return [{ calls: [read(before), sent, read(after)] }];
}

/** Multicall3's own getters (chain id, block number, native balance), answered from `state`. */
function multicallGetter(state: FakeChainState, target: Address, callData: Hex) {
  if (target.toLowerCase() !== multicall3Address.toLowerCase()) return undefined;
  const word = (value: bigint): FakeCallResult => ({
    success: true,
    returnData: encodeAbiParameters([{ type: "uint256" }], [value]),
  });
  const call = decodeFunctionData({ abi: multicall3GettersAbi, data: callData });
  switch (call.functionName) {
    case "getChainId":
      return word(BigInt(state.chainId));
    case "getBlockNumber":
      return word(state.blockNumber ?? 1n);
    case "getEthBalance":
      return word(state.balance ?? 0n);
    default:
      return undefined;
  }
}

/** The GasPriceOracle's getL1Fee, answered from `state`; undefined for any other call. */
function gasPriceOracle(state: FakeChainState, target: Address): FakeCallResult | undefined {
  if (target.toLowerCase() !== gasPriceOracleAddress.toLowerCase()) return undefined;
  if (state.l1Fee === null) return { success: true, returnData: "0x" };
  return {
    success: true,
    returnData: encodeAbiParameters([{ type: "uint256" }], [state.l1Fee ?? 0n]),
  };
}

/** What Multicall3's aggregate3 returns for `data`, an aggregate3 inside it answered the same way. */
function answerAggregate(state: FakeChainState, data: Hex): Hex {
  const { args } = decodeFunctionData({ abi: multicall3Abi, data });
  const calls = args[0] as readonly { target: Address; callData: Hex }[];
  const answers = calls.map((call) => {
    const isMulticall = call.target.toLowerCase() === multicall3Address.toLowerCase();
    if (isMulticall && call.callData.startsWith(aggregate3Selector)) {
      if (state.probesRunOutOfGas) return { success: false, returnData: "0x" as Hex };
      return { success: true, returnData: answerAggregate(state, call.callData) };
    }
    return (
      multicallGetter(state, call.target, call.callData) ??
      state.call?.(call.target, call.callData) ??
      gasPriceOracle(state, call.target) ?? { success: true, returnData: "0x" as Hex }
    );
  });
  return encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: answers });
}

const aggregate3Selector = toFunctionSelector("aggregate3((address,bool,bytes)[])");

/**
 * The JSON answer a node would give to a facts batch for `state`.
 * @example answerFactsBatch(buildFactsBatch(address, "base"), { chainId: 8453 })
 */
export function answerFactsBatch(batch: JsonRpcRequest[], state: FakeChainState): unknown[] {
  return batch.map(({ id, method, params }) => {
    const result = (value: unknown) => ({ jsonrpc: "2.0", id, result: value });
    const failure = (message: string) => ({ jsonrpc: "2.0", id, error: { code: -32000, message } });
    if (state.failing?.includes(method)) return failure(`${method} failed`);
    switch (method) {
      case "eth_getStorageAt":
        return result(state.implementationSlot ?? `0x${"0".repeat(64)}`);
      case "eth_chainId":
        return result(numberToHex(state.chainId));
      case "eth_getCode":
        return result(state.code ?? "0x");
      case "eth_getTransactionCount":
        return result(numberToHex(state.nonce ?? 0n));
      case "eth_getBalance":
        return result(numberToHex(state.balance ?? 0n));
      case "eth_gasPrice":
        return result(numberToHex(state.gasPrice ?? 1_000_000_000n));
      case "eth_blockNumber":
        return result(numberToHex(state.blockNumber ?? 1n));
      case "eth_call": {
        const { data, to } = params[0] as { data: Hex; to?: Address };
        if (to === undefined) return result(state.delegateCodeHash ?? `0x${"0".repeat(64)}`);
        return result(answerAggregate(state, data));
      }
      case "eth_simulateV1":
        if (state.receive === "refused") return failure("the method eth_simulateV1 does not exist");
        return result(answerSimulation(state, params));
      default:
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } };
    }
  });
}
