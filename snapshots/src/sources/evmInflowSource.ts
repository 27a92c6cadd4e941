import {
  type Address,
  BaseError,
  createPublicClient,
  getAddress,
  http,
  type PublicClient,
  parseAbiItem,
} from "viem";

/** Raw 30-day inflow of one address: distinct transactions, base units received, distinct senders. */
export type RawInflow = { tx: number; raw: bigint; senders: number };

export type EvmInflowResult = {
  fromBlock: number;
  toBlock: number;
  inflows: Map<Address, RawInflow>;
  /** How many eth_getLogs calls the provider refused for their range (each was halved). */
  refusedRanges: number;
};

/** USDC received by a set of addresses on one EVM chain over a time window. */
export interface EvmInflowSource {
  measure(addresses: Address[], window: { from: Date; to: Date }): Promise<EvmInflowResult>;
}

const transferEvent = parseAbiItem(
  "event Transfer(address indexed from, address indexed to, uint256 value)",
);

// Providers word range refusals differently: "block range too large", "query returned more than
// 10000 results", "exceed maximum block range", "limit exceeded", "range is too wide".
const rangeRefusal = /range|too large|too many|more than|limit|exceed/i;

function isRangeRefusal(error: unknown): boolean {
  if (error instanceof BaseError) {
    let refused = false;
    error.walk((inner) => {
      const text =
        inner instanceof BaseError ? `${inner.shortMessage} ${inner.details}` : String(inner);
      if (rangeRefusal.test(text)) refused = true;
      return false;
    });
    return refused;
  }
  return error instanceof Error && rangeRefusal.test(error.message);
}

export type RpcEvmInflowSourceOptions = {
  rpcUrl: string;
  /** The chain's USDC contract (shared/chains/chains.ts). */
  usdc: Address;
  /**
   * The first block the timestamp search may look at. 0 on real chains; a local world whose clock
   * was rewound after genesis passes the first block of its rewound history.
   */
  searchFromBlock?: number;
  /** The largest range asked for at once, before any halving. */
  maxBlockRange?: number;
  /** Addresses per eth_getLogs filter (providers cap topic lists). */
  addressesPerQuery?: number;
};

/**
 * Measures USDC Transfer(to=address) logs in the blocks of a time window, found by binary search
 * on block timestamps; a range the provider refuses is halved and retried.
 * @example await rpcEvmInflowSource({ rpcUrl, usdc: chains.arbitrum.usdc.address }).measure([payTo], window);
 */
export function rpcEvmInflowSource(options: RpcEvmInflowSourceOptions): EvmInflowSource {
  const client: PublicClient = createPublicClient({
    transport: http(options.rpcUrl, { retryCount: 1 }),
  });
  const timestamps = new Map<number, number>();
  const timestampOf = async (block: number) => {
    const cached = timestamps.get(block);
    if (cached !== undefined) return cached;
    const { timestamp } = await client.getBlock({ blockNumber: BigInt(block) });
    timestamps.set(block, Number(timestamp));
    return Number(timestamp);
  };
  // The first block in [low, high] whose timestamp is >= seconds, or high + 1 when none is.
  const firstBlockAtOrAfter = async (seconds: number, low: number, high: number) => {
    let lo = low;
    let hi = high + 1;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if ((await timestampOf(mid)) >= seconds) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  return {
    async measure(addresses, window) {
      const latest = Number(await client.getBlockNumber());
      const low = options.searchFromBlock ?? 0;
      const fromSeconds = Math.floor(window.from.getTime() / 1000);
      const toSeconds = Math.floor(window.to.getTime() / 1000);
      const fromBlock = await firstBlockAtOrAfter(fromSeconds, low, latest);
      // The window is [from, to): the last block inside is the one before the first at or after `to`.
      const toBlock = (await firstBlockAtOrAfter(toSeconds, fromBlock, latest)) - 1;

      const targets = [...new Set(addresses.map((address) => getAddress(address)))].sort();
      const perAddress = new Map<
        Address,
        { raw: bigint; txs: Set<string>; senders: Set<Address> }
      >();
      for (const address of targets) {
        perAddress.set(address, { raw: 0n, txs: new Set(), senders: new Set() });
      }
      let refusedRanges = 0;
      const maxRange = options.maxBlockRange ?? 1_000_000;
      const batch = options.addressesPerQuery ?? 50;

      const fetchLogs = async (to: Address[], from: number, until: number) => {
        const logs = await client.getLogs({
          address: options.usdc,
          event: transferEvent,
          args: { to },
          fromBlock: BigInt(from),
          toBlock: BigInt(until),
          strict: true,
        });
        for (const log of logs) {
          const entry = perAddress.get(getAddress(log.args.to));
          if (!entry) continue;
          entry.raw += log.args.value;
          entry.txs.add(log.transactionHash);
          entry.senders.add(getAddress(log.args.from));
        }
      };

      for (let i = 0; i < targets.length; i += batch) {
        const slice = targets.slice(i, i + batch);
        // The span that last worked is kept, so one refusal does not repeat for every later range.
        let span = maxRange;
        let start = fromBlock;
        while (start <= toBlock) {
          const until = Math.min(toBlock, start + span - 1);
          try {
            await fetchLogs(slice, start, until);
            start = until + 1;
          } catch (error) {
            if (!isRangeRefusal(error) || until === start) throw error;
            refusedRanges++;
            span = Math.max(1, Math.floor((until - start + 1) / 2));
          }
        }
      }
      const inflows = new Map<Address, RawInflow>();
      for (const [address, entry] of perAddress) {
        inflows.set(address, { tx: entry.txs.size, raw: entry.raw, senders: entry.senders.size });
      }
      return { fromBlock, toBlock, inflows, refusedRanges };
    },
  };
}
