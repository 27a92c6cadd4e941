import { addressPattern, hexAddressSource } from "@presend/shared/address/addressPattern";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { entryPointAddresses } from "@presend/shared/registry/protocolContracts";
import type {
  HistoryRead,
  NativeRead,
  NativeSend,
  TokenTransfer,
} from "@presend/shared/verdict/summarizeHistory";
import { type Address, getAddress, type Hex, hexToBigInt, isHex } from "viem";
import { blockNotReached, RpcMalformedResponseError, RpcWrongChainError } from "../errors";
import { historyBatchIds, historyTokens, transferTopic } from "./buildHistoryBatch";

type Entry = { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } };

/** JSON-RPC codes and words public endpoints use when they refuse a log query's range or size. */
const refusedRange = /range|limit|too many|exceed|results|too large|timeout/i;

/** Why an eth_getLogs entry failed, in words safe to show (never the endpoint's own text). */
function logsError(error: NonNullable<Entry["error"]>, toBlock: bigint | undefined): string {
  const code = typeof error.code === "number" ? error.code : null;
  const message = typeof error.message === "string" ? error.message : "";
  if (blockNotReached.test(message)) {
    return `the node answering had not reached block ${toBlock ?? "the check read at"}`;
  }
  if (code === -32005 || refusedRange.test(message)) {
    return `the endpoint refused the log query (block range or result cap${code === null ? "" : `, code ${code}`})`;
  }
  return `eth_getLogs failed${code === null ? "" : ` (code ${code})`}`;
}

function nativeError(error: NonNullable<Entry["error"]>): string {
  const code = typeof error.code === "number" ? error.code : null;
  const message = typeof error.message === "string" ? error.message : "";
  if (code === -32601 || /not (found|available|supported)|does not exist/i.test(message)) {
    return "the endpoint has no Otterscan ots_ methods";
  }
  return `ots_searchTransactionsBefore failed${code === null ? "" : ` (code ${code})`}`;
}

const quantity = (value: unknown): bigint | null =>
  typeof value === "string" && isHex(value) && value.length > 2 ? hexToBigInt(value) : null;

const timestampOf = (value: unknown): number | null => {
  const seconds = quantity(value);
  return seconds === null ? null : Number(seconds);
};

// Lowercase, not EIP-55: a thousand checksums (keccak each) would cost more than the query's
// parsing; the summary checksums the few addresses it reports.
// An indexed address: 12 zero bytes, then the address's 20 (its hex without the 0x).
const addressTopic = new RegExp(`^0x0{24}${hexAddressSource.slice(2)}$`);
const topicAddress = (topic: unknown): Address | null =>
  typeof topic === "string" && addressTopic.test(topic)
    ? (`0x${topic.slice(26).toLowerCase()}` as Address)
    : null;

function parseLogs(
  result: unknown,
  symbols: Map<string, string>,
  lastBlock: bigint | null,
): TokenTransfer[] {
  if (!Array.isArray(result)) throw new RpcMalformedResponseError("eth_getLogs: not an array");
  const transfers: TokenTransfer[] = [];
  for (const log of result as Record<string, unknown>[]) {
    const topics = log.topics as unknown[] | undefined;
    const token = typeof log.address === "string" ? symbols.get(log.address.toLowerCase()) : null;
    const from = topicAddress(topics?.[1]);
    const to = topicAddress(topics?.[2]);
    const data = log.data as Hex | undefined;
    const blockNumber = quantity(log.blockNumber);
    // Only standard Transfer(address indexed, address indexed, uint256) events of the read tokens.
    if (!token || topics?.[0] !== transferTopic || !from || !to || blockNumber === null) continue;
    if (typeof data !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(data)) continue;
    // A log past the block the history ends at came from a node ahead of the one that gave the
    // head (a load balancer's): left out, what is kept is that history up to its last block.
    if (lastBlock !== null && blockNumber > lastBlock) continue;
    transfers.push({
      id: `${String(log.transactionHash)}:${String(log.logIndex)}`,
      token,
      from,
      to,
      value: hexToBigInt(data),
      blockNumber,
      timestamp: timestampOf(log.blockTimestamp),
    });
  }
  return transfers;
}

const entryPoints = new Set(entryPointAddresses.map((address) => address.toLowerCase()));

/** An ETH send that pays someone: not gas an account keeps in an ERC-4337 EntryPoint. */
const paysSomeone = (to: string) => !entryPoints.has(to.toLowerCase());

/** A transaction the sender took part in without signing it: its ETH there went out in internal calls. */
export type InnerTransaction = { hash: Hex; blockNumber: bigint; timestamp: number | null };

function parseNative(
  entry: Entry | undefined,
  sender: Address | null,
): { native: NativeRead; inner: InnerTransaction[] } {
  const unknown = (error: string) => ({ native: { status: "unknown", error } as const, inner: [] });
  if (sender === null) return { native: { status: "not_asked" }, inner: [] };
  if (!entry) return unknown("no answer to ots_searchTransactionsBefore");
  if (entry.error) return unknown(nativeError(entry.error));
  const result = entry.result as { txs?: unknown; receipts?: unknown } | null;
  if (!result || !Array.isArray(result.txs)) {
    return unknown("ots_searchTransactionsBefore answered without transactions");
  }
  const receipts = Array.isArray(result.receipts)
    ? (result.receipts as Record<string, unknown>[])
    : [];
  const senderLower = sender.toLowerCase();
  const sends: NativeSend[] = [];
  const inner: InnerTransaction[] = [];
  (result.txs as Record<string, unknown>[]).forEach((tx, index) => {
    const blockNumber = quantity(tx.blockNumber);
    if (blockNumber === null) return;
    const timestamp = timestampOf(tx.blockTimestamp ?? receipts[index]?.timestamp);
    const from = typeof tx.from === "string" ? tx.from.toLowerCase() : null;
    const to = typeof tx.to === "string" ? tx.to.toLowerCase() : null;
    // A Safe or an ERC-4337 account never signs: its transactions come from an owner or a
    // bundler, and what it pays goes out in internal calls, as does what a 7702 account batches
    // in a call to itself. A plain transfer to the sender (no call data) sends nothing from it.
    const plainTransferIn = from !== senderLower && to === senderLower && tx.input === "0x";
    if ((from !== senderLower || to === senderLower) && !plainTransferIn) {
      if (typeof tx.hash === "string" && /^0x[0-9a-fA-F]{64}$/.test(tx.hash)) {
        inner.push({ hash: tx.hash as Hex, blockNumber, timestamp });
      }
    }
    if (from !== senderLower || to === null || !addressPattern.test(to) || !paysSomeone(to)) return;
    sends.push({ to: getAddress(to), value: quantity(tx.value) ?? 0n, blockNumber, timestamp });
  });
  return { native: { status: "read", sends, transactionsRead: result.txs.length }, inner };
}

/** The ETH the sender sent inside one transaction, from its ots_getInternalOperations answer. */
export function parseInternalSends(
  result: unknown,
  sender: Address,
  transaction: InnerTransaction,
): NativeSend[] {
  if (!Array.isArray(result)) {
    throw new RpcMalformedResponseError("ots_getInternalOperations: not an array");
  }
  const senderLower = sender.toLowerCase();
  const sends: NativeSend[] = [];
  for (const operation of result as Record<string, unknown>[]) {
    // Type 0 is a plain ETH transfer (1 self-destruct, 2 CREATE, 3 CREATE2).
    if (operation?.type !== 0) continue;
    if (typeof operation.from !== "string" || operation.from.toLowerCase() !== senderLower)
      continue;
    if (typeof operation.to !== "string" || !addressPattern.test(operation.to)) continue;
    // A prefund the EntryPoint takes in a UserOperation is the account's own gas deposit.
    if (!paysSomeone(operation.to)) continue;
    const value = quantity(operation.value) ?? 0n;
    if (value === 0n) continue;
    sends.push({
      to: getAddress(operation.to),
      value,
      blockNumber: transaction.blockNumber,
      timestamp: transaction.timestamp,
    });
  }
  return sends;
}

/**
 * Reads the answer to buildHistoryBatch. A wrong chain id or a malformed answer throws (the reader
 * tries the next endpoint); a refused log query makes the history unknown, saying why; a missing
 * Otterscan namespace makes only the native sends unknown.
 * @example parseHistoryBatch("base", await response.json(), { address, from, fromBlock, maxLogs: 5_000 })
 */
export function parseHistoryBatch(
  chainName: ChainName,
  body: unknown,
  options: {
    address: Address;
    from: Address | null;
    fromBlock: bigint;
    /** The block the queries were pinned to end at (absent: "latest", the answer's head). */
    toBlock?: bigint;
    maxLogs: number;
  },
): HistoryRead & { head: bigint | null; inner: InnerTransaction[]; notReached?: true } {
  if (!Array.isArray(body)) throw new RpcMalformedResponseError("history batch: not an array");
  const byId = new Map<unknown, Entry>();
  for (const entry of body as Entry[]) byId.set(entry?.id, entry);
  const tokens = historyTokens(chainName);
  const symbols = new Map(tokens.map((token) => [token.address.toLowerCase(), token.symbol]));
  const tokenNames = tokens.map((token) => token.symbol);

  const chainId = quantity(byId.get(historyBatchIds.chainId)?.result);
  if (chainId === null) throw new RpcMalformedResponseError("history batch: no chain id");
  if (Number(chainId) !== chains[chainName].id) {
    throw new RpcWrongChainError(chains[chainName].id, Number(chainId));
  }
  const head = quantity(byId.get(historyBatchIds.blockNumber)?.result);
  const { native, inner } = parseNative(byId.get(historyBatchIds.nativeSends), options.from);
  const { toBlock } = options;
  // The same answer's head below the block the queries end at: the node had not reached it, and
  // some answer a range past their head with the logs up to it, silently fewer.
  if (toBlock !== undefined && head !== null && head < toBlock) {
    return {
      status: "unknown",
      tokens: tokenNames,
      error: `the node answering had not reached block ${toBlock} (its head was ${head})`,
      native,
      head,
      inner,
      notReached: true,
    };
  }

  const transfers: TokenTransfer[] = [];
  let recipientError: string | undefined;
  for (const id of [historyBatchIds.transfersFrom, historyBatchIds.transfersTo]) {
    const entry = byId.get(id);
    if (!entry) throw new RpcMalformedResponseError(`history batch: no answer for entry ${id}`);
    const tooMany =
      !entry.error && Array.isArray(entry.result) && entry.result.length > options.maxLogs;
    // Every transfer of the sender's (and from the checked address to it) is in the first query:
    // transfers to the checked address beyond what a check reads (a poisoner's address gets
    // thousands) leave only the address's own fingerprint unread, never the sender's payments.
    if (id === historyBatchIds.transfersTo && (entry.error || tooMany)) {
      recipientError = entry.error
        ? logsError(entry.error, toBlock)
        : `more than ${options.maxLogs} transfers to this address in the window, more than one check reads`;
      continue;
    }
    if (entry.error)
      return {
        status: "unknown",
        tokens: tokenNames,
        error: logsError(entry.error, toBlock),
        native,
        head,
        inner,
        ...(blockNotReached.test(String(entry.error.message)) && { notReached: true as const }),
      };
    const logs = parseLogs(entry.result, symbols, toBlock ?? head);
    // More than the cap: what was left out could hold the one payment that matters.
    if (tooMany) {
      return {
        status: "unknown",
        tokens: tokenNames,
        error: `more than ${options.maxLogs} transfers in the window, more than one check reads`,
        native,
        head,
        inner,
      };
    }
    transfers.push(...logs);
  }
  return {
    status: "read",
    tokens: tokenNames,
    fromBlock: options.fromBlock,
    toBlock: toBlock ?? head ?? options.fromBlock,
    transfers,
    native,
    ...(recipientError !== undefined && { recipientError }),
    head,
    inner,
  };
}
