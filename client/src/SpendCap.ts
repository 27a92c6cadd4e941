import { formatUnits } from "viem";

/** Amount held against a cap for one payment under way. */
export type Reservation = {
  /** The payment was sent: count it as spent (also when the outcome is unknown). */
  spend(): Promise<void>;
  /** Nothing was charged: free the amount (after spend(), a refund). */
  release(): Promise<void>;
};

/**
 * A limit on what a client may pay. reserve() is called after every check of the challenge
 * and before anything is signed; payments under way count, so two at once cannot both pass.
 */
export type SpendCap = {
  reserve(
    amount: bigint,
  ): Promise<{ type: "reserved"; reservation: Reservation } | { type: "refused"; message: string }>;
};

/**
 * A cap in memory: what one MCP session (or one process) may spend in total, in USDC base units.
 * @example const cap = createSessionSpendCap(100_000n); // USD 0.10
 */
export function createSessionSpendCap(limit: bigint): SpendCap & { spent(): bigint } {
  let held = 0n;
  return {
    spent: () => held,
    async reserve(amount) {
      if (held + amount > limit) {
        return {
          type: "refused",
          message: `Spend cap reached: ${formatUnits(held, 6)} of ${formatUnits(limit, 6)} USDC used; this check costs ${formatUnits(amount, 6)}.`,
        };
      }
      held += amount;
      let released = false;
      return {
        type: "reserved",
        reservation: {
          spend: async () => {},
          release: async () => {
            if (released) return;
            released = true;
            held -= amount;
          },
        },
      };
    },
  };
}
