import { formatUsdc } from "@presend/shared/pricing/formatUsdc";

/** Amount held against a cap for one payment under way. */
export type Reservation = {
  /** The payment was sent: count it as spent (also when the outcome is unknown). */
  spend(): Promise<void>;
  /** Nothing was charged: free the amount (after spend(), a refund). */
  release(): Promise<void>;
};

/**
 * What a reservation pays for. Reservations with the same key are one payment: the server
 * charges an x402 payment id once and answers every retry carrying it from that payment's
 * record, so a retry holds nothing more than the payment it repeats.
 */
export type PaymentKey = { key: string };

/**
 * Why a cap held nothing. `ledger_unreadable`: the cap's own record (a file, say) cannot be read
 * or written, so it holds no amount at all; its message says what is wrong and what to do, and
 * advice about the cap's size or the deposit would mislead. Otherwise the amount does not fit.
 */
export type SpendCapRefusal = {
  type: "refused";
  message: string;
  code?: "ledger_unreadable";
};

/**
 * A limit on what a client may pay. reserve() is called after every check of the challenge
 * and before anything is signed; payments under way count, so two at once cannot both pass.
 */
export type SpendCap = {
  reserve(
    amount: bigint,
    payment?: PaymentKey,
  ): Promise<{ type: "reserved"; reservation: Reservation } | SpendCapRefusal>;
  /**
   * What one more payment could reserve now. Optional: with it, a channel's default deposit is
   * lowered to fit what is left (a session whose channel the server refunded opens a smaller
   * one instead of being refused every check); without it the default deposit is asked whole.
   */
  available?(): Promise<bigint>;
  /**
   * Part of what earlier payments spent came back (a channel's unspent deposits refunded on
   * chain): free up to `amount` of what this cap holds for `payments`, the first first, never
   * more than it holds for them, and say how much was freed. The payments may have been reserved
   * by another process sharing the cap's ledger (a CLI run that opened the channel the next run
   * closes). Optional: a cap without it keeps them counted, which errs on the payer's side.
   */
  refund?(payments: PaymentKey[], amount: bigint): Promise<bigint>;
};

/**
 * A cap in memory: what one MCP session (or one process) may spend in total, in USDC base units.
 * Each payment counts once, however many calls retried it with its payment id.
 * @example const cap = createSessionSpendCap(100_000n); // USD 0.10
 */
export function createSessionSpendCap(limit: bigint): Required<SpendCap> & { spent(): bigint } {
  let held = 0n;
  /** Each payment held: the most asked for it and how many reservations still hold it. */
  const payments = new Map<string, { amount: bigint; holders: number }>();
  let unkeyed = 0;
  return {
    spent: () => held,
    available: async () => (limit > held ? limit - held : 0n),
    async reserve(amount, payment) {
      const key = payment === undefined ? `unkeyed ${unkeyed++}` : `payment ${payment.key}`;
      const entry = payments.get(key) ?? { amount: 0n, holders: 0 };
      const more = amount > entry.amount ? amount - entry.amount : 0n;
      if (held + more > limit) {
        return {
          type: "refused",
          message: `Spend cap reached: ${formatUsdc(held)} of ${formatUsdc(limit)} in USDC used; this payment needs ${formatUsdc(amount)} (a check its price, a channel deposit the whole deposit).`,
        };
      }
      held += more;
      entry.amount += more;
      entry.holders += 1;
      payments.set(key, entry);
      let released = false;
      return {
        type: "reserved",
        reservation: {
          spend: async () => {},
          release: async () => {
            if (released) return;
            released = true;
            entry.holders -= 1;
            // Another call of the same payment may have been charged: it keeps the amount held.
            if (entry.holders > 0) return;
            held -= entry.amount;
            payments.delete(key);
          },
        },
      };
    },
    async refund(refunded, amount) {
      let freed = 0n;
      for (const payment of refunded) {
        const entry = payments.get(`payment ${payment.key}`);
        if (entry === undefined) continue;
        const left = amount - freed;
        if (left <= 0n) break;
        const back = left < entry.amount ? left : entry.amount;
        entry.amount -= back;
        held -= back;
        freed += back;
      }
      return freed;
    },
  };
}
