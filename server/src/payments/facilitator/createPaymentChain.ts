import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  isHash,
  parseAbi,
  parseAbiItem,
} from "viem";
import { boundedFetch } from "../../http/boundedFetch";

const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);
const authorizationUsed = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const authorizationCanceled = parseAbiItem(
  "event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce)",
);

/** How far back an AuthorizationUsed/Canceled event is looked for (Base: about a day of blocks). */
const logWindowBlocks = 50_000n;
/**
 * The first eth_getLogs range asked for. Public endpoints cap ranges (often at 500 to 10,000
 * blocks, some far lower): a refused range is halved until one is served, and that size is kept.
 */
const firstLogStepBlocks = 2_000n;
/** At most this many eth_getLogs of one search: a search that needs more is retried later. */
const maxLogRequests = 300;

/**
 * How long before an authorization's validBefore it can have been used: the server refuses one
 * valid more than maxTimeoutSeconds + slack ahead (90 s), so its transfer cannot be older than
 * this; the rest is margin for clocks.
 */
export const authorizationLookBackSeconds = 600;

export type PaymentChain = {
  /** Chain id matches and the chain answers: payments can be verified and settled. */
  reachable(): Promise<boolean>;
  /** EIP-3009 authorizationState: true once the authorization was used (or cancelled). */
  authorizationUsed(payer: string, nonce: string): Promise<boolean>;
  /** "success" / "reverted" when mined, null when the chain does not know the transaction. */
  receiptStatus(tx: string): Promise<"success" | "reverted" | null>;
  /**
   * The transaction that emitted AuthorizationUsed(payer, nonce), if within the log window;
   * `sinceSeconds` (chain time) bounds the search from below when the caller knows when it can
   * have happened.
   */
  findAuthorizationTx(payer: string, nonce: string, sinceSeconds?: number): Promise<Hex | null>;
  /**
   * Whether the payer cancelled the authorization (EIP-3009 cancelAuthorization emitted
   * AuthorizationCanceled within the log window): its nonce is spent without a transfer.
   */
  authorizationCanceled(payer: string, nonce: string, sinceSeconds?: number): Promise<boolean>;
  /** The chain's latest block time (seconds), the clock validBefore is judged by. */
  now(): Promise<number>;
};

export type PaymentChainOptions = {
  rpcUrl: string;
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
 * @example const chain = createPaymentChain({ rpcUrl, chainId: 8453, asset: usdc });
 */
export function createPaymentChain(options: PaymentChainOptions): PaymentChain {
  const client = createPublicClient({
    transport: http(options.rpcUrl, {
      fetchFn: boundedFetch(),
      timeout: options.timeoutMs ?? 3_000,
      retryCount: 0,
    }),
  });
  // The range size the endpoint last served; shrinks when it refuses one.
  let logStep = firstLogStepBlocks;
  /**
   * The event's logs, walking back from the latest block in ranges the endpoint serves, until
   * one has the event, the range starts before `sinceSeconds`, or the log window ends.
   */
  async function recentLogs(
    event: typeof authorizationUsed | typeof authorizationCanceled,
    payer: string,
    nonce: string,
    sinceSeconds?: number,
  ) {
    const latest = await client.getBlockNumber();
    const floor = latest > logWindowBlocks ? latest - logWindowBlocks : 0n;
    let to = latest;
    for (let requests = 0; requests < maxLogRequests; requests++) {
      const from = to - logStep + 1n > floor ? to - logStep + 1n : floor;
      let logs: Awaited<ReturnType<typeof client.getLogs<typeof event>>>;
      try {
        logs = await client.getLogs({
          address: options.asset,
          event,
          args: { authorizer: payer as Address, nonce: nonce as Hex },
          fromBlock: from,
          toBlock: to,
        });
      } catch (error) {
        // A range too large for this endpoint (or a failed read): ask for less; past one
        // block the endpoint is not answering at all.
        if (to - from === 0n) throw error;
        logStep = (to - from + 1n) / 2n;
        continue;
      }
      if (logs.length > 0) return logs;
      if (from === floor) return [];
      if (sinceSeconds !== undefined) {
        const start = await client.getBlock({ blockNumber: from });
        if (Number(start.timestamp) < sinceSeconds) return [];
      }
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
    async findAuthorizationTx(payer, nonce, sinceSeconds) {
      const logs = await recentLogs(authorizationUsed, payer, nonce, sinceSeconds);
      return logs[0]?.transactionHash ?? null;
    },
    async authorizationCanceled(payer, nonce, sinceSeconds) {
      return (await recentLogs(authorizationCanceled, payer, nonce, sinceSeconds)).length > 0;
    },
    async now() {
      return Number((await client.getBlock({ blockTag: "latest" })).timestamp);
    },
  };
}
