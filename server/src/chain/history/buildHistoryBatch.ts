import { type ChainName, chains } from "@presend/shared/chains/chains";
import { type Address, getAddress, type Hex, numberToHex, pad, toEventSelector } from "viem";
import { blockParameter, type JsonRpcRequest } from "../buildFactsBatch";

/** keccak256("Transfer(address,address,uint256)"): the ERC-20 Transfer event. */
export const transferTopic: Hex = toEventSelector("Transfer(address,address,uint256)");

/** How many of the sender's latest transactions the native read asks Otterscan for. */
export const nativeTransactionsRead = 25;

/** Ids of the history batch's entries (the parser finds answers by id). */
export const historyBatchIds = {
  chainId: 1,
  blockNumber: 2,
  /** Transfers whose `from` is the sender or the checked address. */
  transfersFrom: 3,
  /** Transfers to the checked address. */
  transfersTo: 4,
  /** The sender's latest transactions (Otterscan), for native sends. */
  nativeSends: 5,
} as const;

/** The stablecoins of a chain whose Transfer events are read: address and symbol. */
export function historyTokens(chainName: ChainName): { address: Address; symbol: string }[] {
  const chain = chains[chainName];
  return [chain.usdc, chain.usdt, ...(chain.usdcBridged ? [chain.usdcBridged] : [])].map(
    (token) => ({ address: token.address, symbol: token.symbol }),
  );
}

const topicOf = (address: Address): Hex => pad(address.toLowerCase() as Hex, { size: 32 });

export type HistoryBatchInput = {
  address: Address;
  from: Address | null;
  chain: ChainName;
  fromBlock: bigint;
  /**
   * The last block read (the facts' block when the check is pinned to one): the queries end
   * there, so a node that has not reached it refuses them or is found out, instead of answering
   * up to its own older head. Absent: up to the answering node's head ("latest").
   */
  toBlock?: bigint;
};

/**
 * The history batch for one check on one chain (one HTTP request, at most 5 of the 10 entries an
 * endpoint allows): two topic-filtered eth_getLogs on the chain's stablecoins (an address array,
 * OR-topics) over the block window, and with a sender its latest transactions through
 * Otterscan's ots_searchTransactionsBefore.
 * @example await fetch(url, { method: "POST", body: JSON.stringify(buildHistoryBatch({ address, from, chain: "base", fromBlock: 0n })) });
 */
export function buildHistoryBatch(input: HistoryBatchInput): JsonRpcRequest[] {
  const recipient = getAddress(input.address);
  const sender = input.from === null ? null : getAddress(input.from);
  const tokens = historyTokens(input.chain).map((token) => token.address);
  const range = {
    address: tokens,
    fromBlock: numberToHex(input.fromBlock),
    toBlock: blockParameter(input.toBlock),
  };
  const request = (id: number, method: string, params: unknown[]): JsonRpcRequest => ({
    jsonrpc: "2.0",
    id,
    method,
    params,
  });
  const fromTopics = sender === null ? [topicOf(recipient)] : [topicOf(sender), topicOf(recipient)];
  return [
    request(historyBatchIds.chainId, "eth_chainId", []),
    request(historyBatchIds.blockNumber, "eth_blockNumber", []),
    request(historyBatchIds.transfersFrom, "eth_getLogs", [
      { ...range, topics: [transferTopic, fromTopics] },
    ]),
    request(historyBatchIds.transfersTo, "eth_getLogs", [
      { ...range, topics: [transferTopic, null, [topicOf(recipient)]] },
    ]),
    ...(sender === null
      ? []
      : [
          request(historyBatchIds.nativeSends, "ots_searchTransactionsBefore", [
            sender,
            // Page start 0 is the node's head; a block number reads before it (exclusive).
            input.toBlock === undefined ? 0 : Number(input.toBlock + 1n),
            nativeTransactionsRead,
          ]),
        ]),
  ];
}

/** Added to the history entries' ids when they ride in the facts batch (whose ids stay below). */
export const companionIdOffset = 100;

/**
 * The history entries that ride in a check's facts batch: the log queries and, with a sender,
 * its native sends, ids moved past the facts batch's. The facts batch checks the chain id and
 * reads the head, so those two are left out.
 * @example [...buildFactsBatch(address, "base"), ...buildHistoryCompanion({ address, from, chain: "base", fromBlock })]
 */
export function buildHistoryCompanion(input: HistoryBatchInput): JsonRpcRequest[] {
  return buildHistoryBatch(input)
    .filter(
      (entry) => entry.id !== historyBatchIds.chainId && entry.id !== historyBatchIds.blockNumber,
    )
    .map((entry) => ({ ...entry, id: entry.id + companionIdOffset }));
}
