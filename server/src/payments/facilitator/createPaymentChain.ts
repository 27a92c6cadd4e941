import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { type Address, type Hex, isHash, parseAbi, parseAbiItem, parseEventLogs } from "viem";
import { createBoundedRpcClient } from "../../http/createBoundedRpcClient";

const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);
const authorizationUsed = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const authorizationCanceled = parseAbiItem(
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
);
const transfer = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);
// The batch-settlement escrow's claim (the same event the channel books read).
const claimed = parseAbiItem(
  "event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 amount, uint128 totalClaimed)",
);

/**
 * How far back from the head an AuthorizationUsed/Canceled event is looked for when the caller
 * cannot say when it happened (Base: about a day of blocks).
 */
const logWindowBlocks = 50_000n;
/**
 * The first eth_getLogs range asked for, and the most it grows back to. Public endpoints cap
 * ranges (often at 500 to 10,000 blocks, some at 10): a refused range is halved until one is
 * served, and grows back after ranges are served, never past the smallest one refused.
 */
const firstLogStepBlocks = 2_000n;
/** At most this many eth_getLogs of one search: a search that needs more is retried later. */
const maxLogRequests = 300;
/** Served ranges in a row after which a refused range size is asked for again. */
const rangeRetrySuccesses = 32;
/** At most this many block reads to find the block at a time (a bisection of Base's height is 26). */
const maxBlockReads = 64;
/** Block timestamps kept between searches; a pass over many records reads the same blocks. */
const maxCachedBlocks = 4_096;

/**
 * The JSON-RPC errors endpoints answer for an eth_getLogs range (or result set) too large:
 * -32005 limit exceeded, -32600 / -32602 invalid request or params, -32000 a geth-family server
 * error, -32614 QuickNode's range limit. Only these, with a message that speaks of a range or a
 * result count, shrink the step: a timeout, a rate limit or a dropped connection says nothing
 * about the range and must not make every later search slower.
 */
const rangeErrorCodes = new Set([-32000, -32005, -32600, -32602, -32614]);
const rangeErrorMessage =
  /block range|range (is )?too (large|wide|big)|more than|limit(ed)? exceeded|exceeds? (the )?(max|maximum|limit)|is limited to|too many (results|blocks|logs)|response size/i;
const rateLimitMessage = /rate.?limit|too many requests|request count/i;

/** Whether an eth_getLogs error is the endpoint refusing the range (not a failed read). */
function isLogRangeRefusal(error: unknown): boolean {
  let code: number | undefined;
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    const fields = current as Error & { code?: unknown; details?: unknown };
    if (code === undefined && typeof fields.code === "number") code = fields.code;
    texts.push(current.message, typeof fields.details === "string" ? fields.details : "");
    current = current.cause;
  }
  if (code === undefined || !rangeErrorCodes.has(code)) return false;
  const text = texts.join(" ");
  return rangeErrorMessage.test(text) && !rateLimitMessage.test(text);
}

/**
 * How long before an authorization's validBefore it can have been used: the server refuses one
 * valid more than maxTimeoutSeconds + slack ahead (90 s), so its transfer cannot be older than
 * this; the rest is margin for clocks.
 */
export const authorizationLookBackSeconds = 600;

/** One EIP-3009 transfer a transaction made: the authorization it used and where the money went. */
export type AuthorizedTransfer = { payer: Hex; nonce: Hex; to: Hex };

/** What one transaction did with the token, as its receipt alone tells. */
export type TransactionPayments =
  /** The chain knows no such transaction. */
  | { type: "absent" }
  /** Sent and not mined yet: what it does is not known. */
  | { type: "pending" }
  | {
      type: "mined";
      /** Its EIP-3009 transfers of the token (none when it reverted). */
      transfers: AuthorizedTransfer[];
      /** The batch-settlement escrow's Claimed receivers in it (a channel claim). */
      claimReceivers: Hex[];
    };

export type PaymentChain = {
  /** Chain id matches and the chain answers: payments can be verified and settled. */
  reachable(): Promise<boolean>;
  /** EIP-3009 authorizationState: true once the authorization was used (or cancelled). */
  authorizationUsed(payer: string, nonce: string): Promise<boolean>;
  /** "success" / "reverted" when mined, null when the chain does not know the transaction. */
  receiptStatus(tx: string): Promise<"success" | "reverted" | null>;
  /**
   * The transaction that emitted AuthorizationUsed(payer, nonce), or null when no block searched
   * has it. `sinceSeconds` and `untilSeconds` (chain time) bound the search to the blocks where
   * it can be (an EIP-3009 transfer is mined before its validBefore): the blocks at those times
   * are found by bisection and only that window is walked, however old it is. Without
   * `sinceSeconds`, the last day of blocks is searched. Throws when the chain cannot be read.
   */
  findAuthorizationTx(
    payer: string,
    nonce: string,
    sinceSeconds?: number,
    untilSeconds?: number,
  ): Promise<Hex | null>;
  /**
   * Whether the payer cancelled the authorization (EIP-3009 cancelAuthorization emitted
   * AuthorizationCanceled in the window, as for findAuthorizationTx): its nonce is spent without
   * a transfer.
   */
  authorizationCanceled(
    payer: string,
    nonce: string,
    sinceSeconds?: number,
    untilSeconds?: number,
  ): Promise<boolean>;
  /**
   * What a transaction did with the token, from its receipt (one read, capped in size like every
   * answer; one more, for the transaction itself, only when there is no receipt). Throws when
   * the chain cannot be read.
   */
  paymentsIn(tx: string): Promise<TransactionPayments>;
  /** The chain's latest block time (seconds), the clock validBefore is judged by. */
  now(): Promise<number>;
};

export type PaymentChainOptions = {
  /** The chain's JSON-RPC URLs, asked in order: a call the first does not answer goes to the next. */
  rpcUrls: readonly string[];
  chainId: number;
  /** The EIP-3009 token (USDC). */
  asset: Address;
  timeoutMs?: number;
};

/**
 * The payment chain as the server's own bookkeeping reads it: is it up, did an authorization
 * settle and in which transaction. Only reads every public endpoint serves: the token's
 * authorizationState, a known transaction's receipt, and eth_getLogs over ranges walked back in
 * steps the endpoint accepts. Answers are capped at 1 MB and each call is bounded in time.
 * @example const chain = createPaymentChain({ rpcUrls, chainId: 8453, asset: usdc });
 */
export function createPaymentChain(options: PaymentChainOptions): PaymentChain {
  const client = createBoundedRpcClient(options.rpcUrls, { timeoutMs: options.timeoutMs });
  // The range size asked for next, and the smallest range the endpoint refused (the step grows
  // back after served ranges, up to just below it, so a fixed cap is not asked over and over).
  let logStep = firstLogStepBlocks;
  let refusedStep = firstLogStepBlocks + 1n;
  let servedSinceRefusal = 0;
  const blockTimes = new Map<bigint, number>();
  const blockTime = async (number: bigint): Promise<number> => {
    const known = blockTimes.get(number);
    if (known !== undefined) return known;
    const seconds = Number((await client.getBlock({ blockNumber: number })).timestamp);
    if (blockTimes.size >= maxCachedBlocks) blockTimes.clear();
    blockTimes.set(number, seconds);
    return seconds;
  };

  /**
   * The first block at or after `seconds` (chain time), `latest + 1` when none is mined yet:
   * by interpolation between two known blocks (Base's blocks are evenly spaced, so a guess or two
   * lands), every other step a plain halving so the reads stay logarithmic whatever the spacing.
   * Only eth_getBlockByNumber, which every endpoint serves for any height.
   */
  async function firstBlockAtOrAfter(seconds: number, latest: bigint): Promise<bigint> {
    if ((await blockTime(latest)) < seconds) return latest + 1n;
    let low = 0n;
    const lowTime = await blockTime(low);
    if (lowTime >= seconds) return 0n;
    // Invariant: time(low) < seconds <= time(high).
    let high = latest;
    for (let reads = 0; high - low > 1n; reads++) {
      if (reads >= maxBlockReads) {
        throw new UpstreamError("the block at a time could not be found in time", {
          code: "block_search_exhausted",
        });
      }
      let probe = low + (high - low) / 2n;
      if (reads % 2 === 0) {
        const [lowSeconds, highSeconds] = [await blockTime(low), await blockTime(high)];
        const span = BigInt(Math.max(1, highSeconds - lowSeconds));
        const guess = low + ((high - low) * BigInt(seconds - lowSeconds)) / span;
        probe = guess <= low ? low + 1n : guess >= high ? high - 1n : guess;
      }
      if ((await blockTime(probe)) < seconds) low = probe;
      else high = probe;
    }
    return high;
  }

  /** One eth_getLogs over [from, to]; throws the endpoint's error as is. */
  const logsIn = (
    event: typeof authorizationUsed | typeof authorizationCanceled,
    payer: string,
    nonce: string,
    from: bigint,
    to: bigint,
  ) =>
    client.getLogs({
      address: options.asset,
      event,
      args: { authorizer: payer as Address, nonce: nonce as Hex },
      fromBlock: from,
      toBlock: to,
    });

  /**
   * The event's logs in the blocks where it can be: from the block at `sinceSeconds` to the last
   * block before `untilSeconds` (or the head), walked back from the end in ranges the endpoint
   * serves; without `sinceSeconds`, the last `logWindowBlocks`. Ends at the first range with the
   * event, or with [] once the window is walked: never an open-ended search.
   */
  async function logsInWindow(
    event: typeof authorizationUsed | typeof authorizationCanceled,
    payer: string,
    nonce: string,
    sinceSeconds?: number,
    untilSeconds?: number,
  ) {
    const latest = await client.getBlockNumber();
    const floor =
      sinceSeconds === undefined
        ? latest > logWindowBlocks
          ? latest - logWindowBlocks
          : 0n
        : await firstBlockAtOrAfter(sinceSeconds, latest);
    // An EIP-3009 transfer needs block.timestamp < validBefore: the last block before it.
    const end =
      untilSeconds === undefined ? latest : (await firstBlockAtOrAfter(untilSeconds, latest)) - 1n;
    if (end < floor) return [];
    let to = end;
    for (let requests = 0; requests < maxLogRequests; requests++) {
      const from = to - logStep + 1n > floor ? to - logStep + 1n : floor;
      let logs: Awaited<ReturnType<typeof logsIn>>;
      try {
        logs = await logsIn(event, payer, nonce, from, to);
      } catch (error) {
        // Only the endpoint's refusal of the range says to ask for less; anything else (a
        // timeout, a rate limit) is a failed read, and the caller tries again later.
        if (!isLogRangeRefusal(error) || to === from) throw error;
        const refused = to - from + 1n;
        if (refused < refusedStep) refusedStep = refused;
        logStep = refused / 2n;
        servedSinceRefusal = 0;
        continue;
      }
      // A refusal may have been the endpoint's moment (a busy node, a result cap): after a long
      // run of served ranges the full size is tried again.
      if (++servedSinceRefusal >= rangeRetrySuccesses) refusedStep = firstLogStepBlocks + 1n;
      if (logStep * 2n < refusedStep) logStep *= 2n;
      else if (logStep < refusedStep - 1n) logStep = refusedStep - 1n;
      if (logs.length > 0) return logs;
      if (from === floor) return [];
      to = from - 1n;
    }
    throw new UpstreamError("the payment chain's logs could not be searched in time", {
      code: "log_search_exhausted",
    });
  }
  return {
    async reachable() {
      try {
        return (await client.getChainId()) === options.chainId;
      } catch {
        return false;
      }
    },
    authorizationUsed: (payer, nonce) =>
      client.readContract({
        address: options.asset,
        abi: eip3009,
        functionName: "authorizationState",
        args: [payer as Address, nonce as Hex],
      }),
    async receiptStatus(tx) {
      if (!isHash(tx)) return null;
      try {
        return (await client.getTransactionReceipt({ hash: tx })).status;
      } catch (error) {
        if (error instanceof Error && error.name === "TransactionReceiptNotFoundError") return null;
        throw error;
      }
    },
    async findAuthorizationTx(payer, nonce, sinceSeconds, untilSeconds) {
      const logs = await logsInWindow(authorizationUsed, payer, nonce, sinceSeconds, untilSeconds);
      return logs[0]?.transactionHash ?? null;
    },
    async authorizationCanceled(payer, nonce, sinceSeconds, untilSeconds) {
      const logs = await logsInWindow(
        authorizationCanceled,
        payer,
        nonce,
        sinceSeconds,
        untilSeconds,
      );
      return logs.length > 0;
    },
    async paymentsIn(tx) {
      if (!isHash(tx)) return { type: "absent" };
      let receipt: Awaited<ReturnType<typeof client.getTransactionReceipt>>;
      try {
        receipt = await client.getTransactionReceipt({ hash: tx });
      } catch (error) {
        if (!(error instanceof Error && error.name === "TransactionReceiptNotFoundError")) {
          throw error;
        }
        // No receipt: a transaction still waiting to be mined may yet charge, so "absent" is
        // said only of one the chain does not know at all.
        const sent = await client.getTransaction({ hash: tx }).catch((missing: unknown) => {
          if (missing instanceof Error && missing.name === "TransactionNotFoundError") return null;
          throw missing;
        });
        return sent === null ? { type: "absent" } : { type: "pending" };
      }
      const asset = options.asset.toLowerCase();
      const logs = parseEventLogs({
        abi: [authorizationUsed, transfer, claimed],
        logs: receipt.logs,
        strict: true,
      });
      const transfers: AuthorizedTransfer[] = [];
      const claimReceivers: Hex[] = [];
      for (const [index, log] of logs.entries()) {
        if (log.eventName === "Claimed") {
          if (log.address.toLowerCase() === BATCH_SETTLEMENT_ADDRESS.toLowerCase()) {
            claimReceivers.push(log.args.receiver.toLowerCase() as Hex);
          }
          continue;
        }
        if (log.eventName !== "AuthorizationUsed" || log.address.toLowerCase() !== asset) continue;
        // EIP-3009 (USDC's FiatToken, the devnet's token) marks the authorization used, then
        // moves the money: its Transfer is the token's next event, from the authorizer.
        const next = logs.slice(index + 1).find((later) => later.address.toLowerCase() === asset);
        const payer = log.args.authorizer.toLowerCase() as Hex;
        if (next?.eventName !== "Transfer" || next.args.from.toLowerCase() !== payer) continue;
        transfers.push({
          payer,
          nonce: log.args.nonce.toLowerCase() as Hex,
          to: next.args.to.toLowerCase() as Hex,
        });
      }
      return { type: "mined", transfers, claimReceivers };
    },
    async now() {
      return Number((await client.getBlock({ blockTag: "latest" })).timestamp);
    },
  };
}
