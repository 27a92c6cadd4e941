import type { Reservation } from "../SpendCap";

export type DepositLedger = {
  /**
   * A deposit was sent, held whole in the spend cap by `reservation`; `landed` when the server's
   * answer proved it reached the channel (a settled payment), false when that is unknown.
   */
  deposited(reservation: Reservation, amount: bigint, landed: boolean): void;
  /** A check was paid from the channel (or may have been): its price is spent, not refundable. */
  charged(price: bigint): void;
  /**
   * The channel was closed and `refunded` sent back to the payer: the cap gets that much back,
   * never more than it holds of this payer's deposits beyond what its checks were charged.
   * Returns what the cap freed. The channel is empty afterwards; the ledger starts over.
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

/**
 * What the spend cap holds for one channel's deposits, so a refund is credited back exactly: a
 * deposit is reserved whole when it is sent (the server may keep what it claims of it), the
 * checks it pays are spent, and at close the cap frees what the refund returned, bounded by the
 * deposits it holds less the checks this payer paid from them. A refund that says more (another
 * process's deposit in the same channel, a server's mistake) frees no more than that.
 * @example const ledger = createDepositLedger(); ledger.deposited(reservation, deposit, true);
 */
export function createDepositLedger(): DepositLedger {
  let deposits: Reservation[] = [];
  /** What the cap holds of the deposits beyond what their checks were charged. */
  let unspent = 0n;
  /** The same, counting only the deposits known to have reached the channel. */
  let unspentLanded = 0n;
  const less = (amount: bigint, price: bigint) => (price >= amount ? 0n : amount - price);

  async function free(refunded: bigint, bound: bigint): Promise<bigint> {
    let left = refunded < bound ? refunded : bound;
    let freed = 0n;
    // The latest deposit first: it is the one least used by the checks so far.
    for (const reservation of [...deposits].reverse()) {
      if (left <= 0n) break;
      const back = (await reservation.refund?.(left)) ?? 0n;
      freed += back;
      left -= back;
    }
    deposits = [];
    unspent = 0n;
    unspentLanded = 0n;
    return freed;
  }

  return {
    deposited(reservation, amount, landed) {
      deposits.push(reservation);
      unspent += amount;
      if (landed) unspentLanded += amount;
    },
    charged(price) {
      unspent = less(unspent, price);
      unspentLanded = less(unspentLanded, price);
    },
    refunded: (refunded) => free(refunded, unspent),
    refundedUnstated: () => free(unspentLanded, unspentLanded),
  };
}
