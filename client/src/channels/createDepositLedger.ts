import type { SpendCap } from "../SpendCap";

/** What a deposit ledger keeps of one channel: a store may keep it between processes. */
export type DepositLedgerState = {
  /** The payment keys the spend cap holds the channel's deposits under, the earliest first. */
  deposits: string[];
  /** What the cap holds of the deposits beyond what their checks were charged (base units). */
  unspent: string;
  /** The same, counting only the deposits known to have reached the channel. */
  unspentLanded: string;
};

/**
 * Where a deposit ledger keeps its state (default: in memory, for this client alone). Processes
 * that share a channel's state and lock share this too: a CLI run that closes the channel then
 * gives the daily cap back what the deposits of earlier runs held. Only used holding the
 * channel's lock, so reads and writes of different processes never interleave.
 */
export type DepositLedgerStore = {
  /** The state last written; null when there is none (or it cannot be read). */
  read(): Promise<DepositLedgerState | null>;
  /** Keeps `state`; null forgets it. */
  write(state: DepositLedgerState | null): Promise<void>;
};

export type DepositLedger = {
  /**
   * A deposit was sent, held whole in the spend cap under `payment`; `landed` when the server's
   * answer proved it reached the channel (a settled payment), false when that is unknown.
   */
  deposited(payment: string, amount: bigint, landed: boolean): Promise<void>;
  /** A check was paid from the channel (or may have been): its price is spent, not refundable. */
  charged(price: bigint): Promise<void>;
  /**
   * The channel was closed and `refunded` sent back to the payer: the cap gets that much back,
   * never more than it holds of the deposits beyond what their checks were charged. Returns what
   * the cap freed. The channel is empty afterwards; the ledger starts over.
   */
  refunded(refunded: bigint): Promise<bigint>;
  /**
   * The server refunded the channel on its own (idle) and said no amount: the cap gets back what
   * is known to have been left in it, the deposits proven to have landed less every check that
   * was or may have been charged. The refund returned at least that (it sends back all that was
   * not charged), so the cap is never credited more than came back. The ledger starts over.
   */
  refundedUnstated(): Promise<bigint>;
};

/** A store in memory: the ledger of one client. */
export function createMemoryDepositLedgerStore(): DepositLedgerStore {
  let kept: DepositLedgerState | null = null;
  return {
    read: async () => kept,
    write: async (state) => {
      kept = state;
    },
  };
}

const empty = (): DepositLedgerState => ({ deposits: [], unspent: "0", unspentLanded: "0" });

/**
 * What the spend cap holds for one channel's deposits, so a refund is credited back exactly: a
 * deposit is reserved whole when it is sent (the server may keep what it claims of it), the
 * checks it pays are spent, and at close the cap frees what the refund returned, bounded by the
 * deposits it holds less the checks paid from them. A refund that says more (another payer's
 * deposit in the same channel, a server's mistake) frees no more than that. A state that cannot
 * be read or kept credits nothing later, which errs on the payer's side.
 * @example const ledger = createDepositLedger({ cap }); await ledger.deposited(key, deposit, true);
 */
export function createDepositLedger(
  options: { cap?: SpendCap; store?: DepositLedgerStore } = {},
): DepositLedger {
  const store = options.store ?? createMemoryDepositLedgerStore();
  const less = (amount: bigint, price: bigint) => (price >= amount ? 0n : amount - price);

  const read = async (): Promise<DepositLedgerState> =>
    (await store.read().catch(() => null)) ?? empty();
  const keep = async (state: DepositLedgerState | null) => {
    try {
      await store.write(state);
    } catch {
      // A state left behind could later credit a refund against checks it did not count.
      await store.write(null).catch(() => {});
    }
  };

  async function free(deposits: string[], refunded: bigint, bound: bigint): Promise<bigint> {
    const amount = refunded < bound ? refunded : bound;
    // Whatever the cap says, the channel is empty now: nothing of it is to be credited again.
    await keep(null);
    if (amount <= 0n || deposits.length === 0 || !options.cap?.refund) return 0n;
    // The latest deposit first: it is the one least used by the checks so far.
    const latestFirst = [...deposits].reverse().map((key) => ({ key }));
    return options.cap.refund(latestFirst, amount).catch(() => 0n);
  }

  return {
    async deposited(payment, amount, landed) {
      const state = await read();
      await keep({
        deposits: [...state.deposits, payment],
        unspent: String(BigInt(state.unspent) + amount),
        unspentLanded: String(BigInt(state.unspentLanded) + (landed ? amount : 0n)),
      });
    },
    async charged(price) {
      const state = await read();
      await keep({
        deposits: state.deposits,
        unspent: String(less(BigInt(state.unspent), price)),
        unspentLanded: String(less(BigInt(state.unspentLanded), price)),
      });
    },
    async refunded(refunded) {
      const state = await read();
      return free(state.deposits, refunded, BigInt(state.unspent));
    },
    async refundedUnstated() {
      const state = await read();
      const landed = BigInt(state.unspentLanded);
      return free(state.deposits, landed, landed);
    },
  };
}
