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

export type PaymentChain = {
  /** Chain id matches and the chain answers: payments can be verified and settled. */
  reachable(): Promise<boolean>;
  /** EIP-3009 authorizationState: true once the authorization was used (or cancelled). */
  authorizationUsed(payer: string, nonce: string): Promise<boolean>;
  /** "success" / "reverted" when mined, null when the chain does not know the transaction. */
  receiptStatus(tx: string): Promise<"success" | "reverted" | null>;
  /** The transaction that emitted AuthorizationUsed(payer, nonce), if within the log window. */
  findAuthorizationTx(payer: string, nonce: string): Promise<Hex | null>;
  /**
   * Whether the payer cancelled the authorization (EIP-3009 cancelAuthorization emitted
   * AuthorizationCanceled within the log window): its nonce is spent without a transfer.
   */
  authorizationCanceled(payer: string, nonce: string): Promise<boolean>;
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
 * settle and in which transaction. Answers are capped at 1 MB and each call is bounded in time.
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
  async function recentLogs(
    event: typeof authorizationUsed | typeof authorizationCanceled,
    payer: string,
    nonce: string,
  ) {
    const latest = await client.getBlockNumber();
    return client.getLogs({
      address: options.asset,
      event,
      args: { authorizer: payer as Address, nonce: nonce as Hex },
      fromBlock: latest > logWindowBlocks ? latest - logWindowBlocks : 0n,
      toBlock: latest,
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
    async findAuthorizationTx(payer, nonce) {
      const logs = await recentLogs(authorizationUsed, payer, nonce);
      return logs[0]?.transactionHash ?? null;
    },
    async authorizationCanceled(payer, nonce) {
      return (await recentLogs(authorizationCanceled, payer, nonce)).length > 0;
    },
    async now() {
      return Number((await client.getBlock({ blockTag: "latest" })).timestamp);
    },
  };
}
