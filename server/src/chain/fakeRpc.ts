import {
  type Address,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionResult,
  type Hex,
  hexToBigInt,
  multicall3Abi,
  numberToHex,
  parseAbi,
} from "viem";
import type { JsonRpcRequest } from "./buildFactsBatch";

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
  /** Methods answered with a JSON-RPC error instead (e.g. "eth_getStorageAt"). */
  failing?: string[];
};

const simulationAbi = parseAbi([
  "struct Result { bool success; bytes returnData; }",
  "function aggregate3Value((address,bool,uint256,bytes)[] calls) payable returns (Result[] returnData)",
]);

function answerSimulation(state: FakeChainState, value: bigint): Hex {
  const before = state.balance ?? 0n;
  const after =
    state.receive === "forwarded" || state.receive === "rejected" ? before : before + value;
  const word = (amount: bigint) => ({
    success: true,
    returnData: encodeAbiParameters([{ type: "uint256" }], [amount]),
  });
  return encodeFunctionResult({
    abi: simulationAbi,
    functionName: "aggregate3Value",
    result: [
      word(before),
      { success: state.receive !== "rejected", returnData: "0x" },
      word(after),
    ],
  });
}

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
        const { data, to, value } = params[0] as { data: Hex; to?: Address; value?: Hex };
        if (to === undefined) return result(state.delegateCodeHash ?? `0x${"0".repeat(64)}`);
        if (params.length > 2) {
          if (state.receive === "refused") return failure("state override not supported");
          return result(answerSimulation(state, hexToBigInt(value ?? "0x0")));
        }
        const { args } = decodeFunctionData({ abi: multicall3Abi, data });
        const calls = args[0] as readonly { target: Address; callData: Hex }[];
        const answers = calls.map(
          (call) =>
            state.call?.(call.target, call.callData) ?? { success: true, returnData: "0x" as Hex },
        );
        return result(
          encodeFunctionResult({ abi: multicall3Abi, functionName: "aggregate3", result: answers }),
        );
      }
      default:
        return { jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } };
    }
  });
}
