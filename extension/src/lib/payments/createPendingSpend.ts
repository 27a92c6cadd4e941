/** Amounts of paid checks that passed the cap check but are not in the spend ledger yet. */
export type PendingSpend = {
  /** The sum of every amount held now. */
  total(): bigint;
  /** Holds `amount` until the returned release is called (calling it again does nothing). */
  hold(amount: bigint): () => void;
};

/**
 * The background's in-memory count of payments under way. The ledger is written only once the
 * wallet has signed, so without it two checks started together would both pass the cap check
 * and together spend over the cap.
 * @example const release = pending.hold(10_000n); try { await pay() } finally { release() }
 */
export function createPendingSpend(): PendingSpend {
  let total = 0n;
  return {
    total: () => total,
    hold(amount) {
      total += amount;
      let held = true;
      return () => {
        if (held) total -= amount;
        held = false;
      };
    },
  };
}
