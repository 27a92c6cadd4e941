import {
  type Address,
  decodeFunctionData,
  encodeFunctionResult,
  type Hex,
  multicall3Abi,
  numberToHex,
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
};

/**
 * The JSON answer a node would give to a facts batch for `state`.
 * @example answerFactsBatch(buildFactsBatch(address, "base"), { chainId: 8453 })
 */
export function answerFactsBatch(batch: JsonRpcRequest[], state: FakeChainState): unknown[] {
  return batch.map(({ id, method, params }) => {
    const result = (value: unknown) => ({ jsonrpc: "2.0", id, result: value });
    switch (method) {
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
        const { data } = params[0] as { data: Hex };
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
