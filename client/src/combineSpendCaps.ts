import type { PaymentKey, Reservation, SpendCap } from "./SpendCap";

/**
 * Caps that must all allow a payment: a session's own and a ledger shared across sessions, say.
 * A payment refused by one is held by none (what the others reserved is released), a payment
 * spent or released is spent or released in each, and what a refund frees is what every cap
 * freed (a cap that cannot take refunds keeps counting it, so none gives back more than another).
 * @example const cap = combineSpendCaps([createSessionSpendCap(100_000n), dailyCap]);
 */
export function combineSpendCaps(caps: SpendCap[]): SpendCap {
  return {
    async reserve(amount: bigint, payment?: PaymentKey) {
      const held: Reservation[] = [];
      for (const cap of caps) {
        const reserved = await cap.reserve(amount, payment);
        if (reserved.type === "refused") {
          for (const reservation of held) await reservation.release();
          return reserved;
        }
        held.push(reserved.reservation);
      }
      return {
        type: "reserved" as const,
        reservation: {
          spend: async () => {
            for (const reservation of held) await reservation.spend();
          },
          release: async () => {
            for (const reservation of held) await reservation.release();
          },
        },
      };
    },
    // Each cap frees what it holds of the payments on its own (a session's cap knows nothing
    // of another run's deposit that the daily ledger still counts).
    async refund(payments: PaymentKey[], amount: bigint) {
      let freedEverywhere: bigint | null = null;
      for (const cap of caps) {
        const freed = cap.refund ? await cap.refund(payments, amount) : 0n;
        if (freedEverywhere === null || freed < freedEverywhere) freedEverywhere = freed;
      }
      return freedEverywhere ?? 0n;
    },
    // Offered only when some cap can say what it has left: without it the caller asks whole.
    ...(caps.some((cap) => cap.available) && {
      async available() {
        let least: bigint | null = null;
        for (const cap of caps) {
          if (!cap.available) continue;
          const left = await cap.available();
          if (least === null || left < least) least = left;
        }
        return least ?? 0n;
      },
    }),
  };
}
