import {
  type ChainInfo,
  type ChainName,
  chains,
  multicall3Address,
} from "@presend/shared/chains/chains";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  multicall3Abi,
  parseAbi,
  prepareEncodeFunctionData,
} from "viem";

export type JsonRpcRequest = {
  jsonrpc: "2.0";
  id: number;
  method: string;
  params: unknown[];
};

/** Safe (and Safe-like multisigs) expose the signer threshold; an ERC-20 or EOA does not. */
export const safeAbi = parseAbi(["function getThreshold() view returns (uint256)"]);

/** What each Multicall3 sub-call asks, in the order they sit in the aggregate3 call. */
export type FactsSubcall = {
  key: "usdc" | "usdt" | "usdcBridged" | "threshold" | "totalSupply" | "decimals";
  target: Address;
  callData: Hex;
};

/** Ids of the batch entries; the parser finds answers by id because servers may reorder them. */
export const factsBatchIds = {
  chainId: 1,
  code: 2,
  nonce: 3,
  balance: 4,
  gasPrice: 5,
  blockNumber: 6,
  multicall: 7,
} as const;

// Selectors are hashed once here, not on every check (viem's prepared encoders).
const balanceOfCall = prepareEncodeFunctionData({ abi: erc20Abi, functionName: "balanceOf" });
const aggregate3Call = prepareEncodeFunctionData({
  abi: multicall3Abi,
  functionName: "aggregate3",
});
const thresholdData = encodeFunctionData({ abi: safeAbi, functionName: "getThreshold" });
const totalSupplyData = encodeFunctionData({ abi: erc20Abi, functionName: "totalSupply" });
const decimalsData = encodeFunctionData({ abi: erc20Abi, functionName: "decimals" });

/** The keys of the sub-calls, in the order they sit in the aggregate3 call on `chain`. */
export function factsSubcallKeys(chain: ChainInfo): FactsSubcall["key"][] {
  return chain.usdcBridged
    ? ["usdc", "usdt", "usdcBridged", "threshold", "totalSupply", "decimals"]
    : ["usdc", "usdt", "threshold", "totalSupply", "decimals"];
}

/** The sub-calls of the single aggregate3 eth_call: stablecoin balances, then classification probes. */
export function factsSubcalls(address: Address, chain: ChainInfo): FactsSubcall[] {
  const balanceOf = encodeFunctionData({ ...balanceOfCall, args: [address] });
  const targets: Record<FactsSubcall["key"], { target: Address; callData: Hex }> = {
    usdc: { target: chain.usdc.address, callData: balanceOf },
    usdt: { target: chain.usdt.address, callData: balanceOf },
    usdcBridged: { target: chain.usdcBridged?.address ?? chain.usdc.address, callData: balanceOf },
    // Probes against the address itself. On an EOA they return empty data; a revert stays inside
    // aggregate3 (allowFailure), so a hostile or odd contract cannot fail the whole read.
    threshold: { target: address, callData: thresholdData },
    totalSupply: { target: address, callData: totalSupplyData },
    decimals: { target: address, callData: decimalsData },
  };
  return factsSubcallKeys(chain).map((key) => ({ key, ...targets[key] }));
}

/**
 * The exact JSON-RPC batch (one HTTP request) the chain reader sends for one address on one chain.
 * @example await fetch(rpcUrl, { method: "POST", body: JSON.stringify(buildFactsBatch(address, "base")) });
 */
export function buildFactsBatch(address: Address, chainName: ChainName): JsonRpcRequest[] {
  const chain = chains[chainName];
  const target = getAddress(address);
  // One aggregate3 eth_call instead of one eth_call per probe: reverts come back as
  // success=false inside a successful answer, so any JSON-RPC error left in the batch means the
  // endpoint itself failed and the reader can fall back without guessing which errors are benign.
  const aggregate = encodeFunctionData({
    ...aggregate3Call,
    args: [
      factsSubcalls(target, chain).map((call) => ({
        target: call.target,
        allowFailure: true,
        callData: call.callData,
      })),
    ],
  });
  const request = (id: number, method: string, params: unknown[]): JsonRpcRequest => ({
    jsonrpc: "2.0",
    id,
    method,
    params,
  });
  return [
    // The chain id guards against an endpoint configured for the wrong chain.
    request(factsBatchIds.chainId, "eth_chainId", []),
    request(factsBatchIds.code, "eth_getCode", [target, "latest"]),
    request(factsBatchIds.nonce, "eth_getTransactionCount", [target, "latest"]),
    request(factsBatchIds.balance, "eth_getBalance", [target, "latest"]),
    request(factsBatchIds.gasPrice, "eth_gasPrice", []),
    request(factsBatchIds.blockNumber, "eth_blockNumber", []),
    request(factsBatchIds.multicall, "eth_call", [
      { to: multicall3Address, data: aggregate },
      "latest",
    ]),
  ];
}
