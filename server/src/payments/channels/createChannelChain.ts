import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { BATCH_SETTLEMENT_ADDRESS } from "@x402/evm";
import { type Hex, parseAbiItem } from "viem";
import { createBoundedRpcClient } from "../../http/createBoundedRpcClient";

// The escrow's interface as @x402/evm's facilitator calls it (the package exports no ABI).
const channels = parseAbiItem(
  "function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)",
);
const pendingWithdrawals = parseAbiItem(
  "function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)",
);
const receivers = parseAbiItem(
  "function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)",
);
const claimed = parseAbiItem(
  "event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 amount, uint128 totalClaimed)",
);
/** How far back a channel's claims are looked for (Base: about four days of blocks). */
const logWindowBlocks = 200_000n;
/** The first eth_getLogs range asked for; halved while the endpoint refuses it, then kept. */
const firstLogStepBlocks = 2_000n;
/** At most this many eth_getLogs of one search: a search that needs more is retried later. */
const maxLogRequests = 300;

/** One claim on chain that raised a channel's claimed total from `from` (exclusive) to `to`. */
export type ChannelClaim = { from: bigint; to: bigint; tx: Hex };

/** A channel as the escrow holds it now. */
export type EscrowChannel = {
  /** Everything deposited, less what was refunded or withdrawn. */
  balance: bigint;
  totalClaimed: bigint;
  /** When the payer started a timed withdrawal still pending (unix seconds), else 0. */
  withdrawRequestedAt: number;
};

export type ChannelChain = {
  /** What the escrow holds as claimed from the channel (its `totalClaimed`). */
  totalClaimed(channelId: string): Promise<bigint>;
  /** The channel's balance, claimed total and pending withdrawal, read together. */
  channel(channelId: string): Promise<EscrowChannel>;
  /**
   * What the escrow has claimed for `receiver` in `token` across all its channels, and how much
   * of that it has already transferred to the receiver (settled).
   */
  receiverTotals(receiver: Hex, token: Hex): Promise<{ claimed: bigint; settled: bigint }>;
  /**
   * The claims of `channelId` that raised its total past `above`, newest first, walking back from
   * the latest block in ranges the endpoint serves.
   */
  claimsAbove(channelId: string, above: bigint): Promise<ChannelClaim[]>;
};

/**
 * The batch-settlement escrow as the server's books read it: a channel's claimed total, the
 * receiver's claimed and settled totals, and the Claimed events that name the transaction of each
 * claim. Only reads every public endpoint serves (a contract read, eth_getLogs in ranges halved
 * when refused), bounded in size and time.
 * @example const chain = createChannelChain({ rpcUrls });
 */
export function createChannelChain(options: {
  /** The chain's JSON-RPC URLs, asked in order: a call the first does not answer goes to the next. */
  rpcUrls: readonly string[];
  timeoutMs?: number;
}): ChannelChain {
  const client = createBoundedRpcClient(options.rpcUrls, { timeoutMs: options.timeoutMs });
  let logStep = firstLogStepBlocks;
  return {
    async totalClaimed(channelId) {
      const [, total] = await client.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: [channels],
        functionName: "channels",
        args: [channelId as Hex],
      });
      return total;
    },
    async channel(channelId) {
      const [[balance, totalClaimed], [, initiatedAt]] = await Promise.all([
        client.readContract({
          address: BATCH_SETTLEMENT_ADDRESS,
          abi: [channels],
          functionName: "channels",
          args: [channelId as Hex],
        }),
        client.readContract({
          address: BATCH_SETTLEMENT_ADDRESS,
          abi: [pendingWithdrawals],
          functionName: "pendingWithdrawals",
          args: [channelId as Hex],
        }),
      ]);
      return { balance, totalClaimed, withdrawRequestedAt: initiatedAt };
    },
    async receiverTotals(receiver, token) {
      const [claimedTotal, settled] = await client.readContract({
        address: BATCH_SETTLEMENT_ADDRESS,
        abi: [receivers],
        functionName: "receivers",
        args: [receiver, token],
      });
      return { claimed: claimedTotal, settled };
    },
    async claimsAbove(channelId, above) {
      const latest = await client.getBlockNumber();
      const floor = latest > logWindowBlocks ? latest - logWindowBlocks : 0n;
      const found: ChannelClaim[] = [];
      let to = latest;
      for (let requests = 0; requests < maxLogRequests; requests++) {
        const from = to - logStep + 1n > floor ? to - logStep + 1n : floor;
        let logs: Awaited<ReturnType<typeof client.getLogs<typeof claimed>>>;
        try {
          logs = await client.getLogs({
            address: BATCH_SETTLEMENT_ADDRESS,
            event: claimed,
            args: { channelId: channelId as Hex },
            fromBlock: from,
            toBlock: to,
          });
        } catch (error) {
          if (to - from === 0n) throw error;
          logStep = (to - from + 1n) / 2n;
          continue;
        }
        for (const log of logs.reverse()) {
          const { amount, totalClaimed } = log.args;
          if (amount === undefined || totalClaimed === undefined) continue;
          found.push({ from: totalClaimed - amount, to: totalClaimed, tx: log.transactionHash });
          // Claims only raise the total: the one that started at or below `above` is the last needed.
          if (totalClaimed - amount <= above) return found;
        }
        if (from === floor) return found;
        to = from - 1n;
      }
      throw new UpstreamError("the escrow's claims could not be searched in time", {
        code: "log_search_exhausted",
      });
    },
  };
}
