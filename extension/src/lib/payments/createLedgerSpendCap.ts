import type { SpendCap } from "@presend/client";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { SpendLedger } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { capStartsAgainAt } from "./capStartsAgainAt";
import type { PendingSpend } from "./createPendingSpend";

export const ledgerUnreadable =
  "The record of today's spending is unreadable, so the daily cap cannot be enforced. Reset it in the options to pay again.";

export type LedgerSpendCap = SpendCap &
  Required<Pick<SpendCap, "refund">> & {
    /** The last reserve() or fits() found the ledger unreadable (its refusal is "ledger_unreadable"). */
    ledgerBroken(): boolean;
    /**
     * Whether `amount` fits now, without holding it: null, or the refusal's words. Asked before the
     * wallet is asked for a channel deposit (the client reserves it after the signature).
     */
    fits(amount: bigint): Promise<string | null>;
    /**
     * A channel deposit an earlier check counted on `day` (that check's reservation ended with
     * it), for the close: its refund gives back what the close returned, at most `amount`, and
     * only while the ledger still counts `day` (a past day's spending no longer holds the cap).
     */
    countedDeposit(amount: bigint, day: string): { refund(refunded: bigint): Promise<bigint> };
  };

/**
 * The daily cap as the client's SpendCap: today's ledger plus the payments under way in this
 * background (so two started together cannot both fit). An amount counts in the ledger once its
 * payment is sent (spend) and leaves it only when the answer proves nothing was charged
 * (release). A channel deposit is reserved whole like one payment; its vouchers reserve nothing,
 * and a channel's close gives back what its refund returned (refund, countedDeposit).
 * @example const cap = createLedgerSpendCap({ ledger, pending, dailyCapUnits: 1_000_000, today: "2025-06-01" })
 */
export function createLedgerSpendCap(options: {
  ledger: ValidatedItem<SpendLedger>;
  pending: PendingSpend;
  dailyCapUnits: number;
  /** The UTC day the payment counts on (utcDay). */
  today: string;
}): LedgerSpendCap {
  const { ledger, pending, today } = options;
  const cap = BigInt(options.dailyCapUnits);
  let broken = false;
  /** What each payment reserved here counts in today's ledger now (less what refunds gave back). */
  const counted = new Map<string, bigint>();
  let unkeyed = 0;
  // Today's spending in the ledger, or null when the ledger is unreadable.
  const ledgerToday = async (): Promise<bigint | null> => {
    try {
      const current = await ledger.getValue();
      return current.day === today ? BigInt(current.spentUnits) : 0n;
    } catch {
      // Reading an unreadable ledger as $0 would let anything that corrupts it lift the cap.
      broken = true;
      return null;
    }
  };
  // Checks still under way count as spent: two started together cannot both fit. Called with
  // no await between it and the hold that follows.
  const refusal = (inLedger: bigint | null, amount: bigint): string | null => {
    if (inLedger === null) return ledgerUnreadable;
    const spent = inLedger + pending.total();
    return spent + amount > cap ? capMessage(spent, cap, amount, today) : null;
  };
  // Takes up to `amount` off `day`'s spending, never more than `held` (what the payment counted
  // there) nor than the ledger holds; says how much.
  const credit = async (day: string, held: bigint, amount: bigint): Promise<bigint> => {
    let back = 0n;
    await ledger.update((current) => {
      back = 0n;
      if (current.day !== day || amount <= 0n) return current;
      const spent = BigInt(current.spentUnits);
      back = [amount, held, spent].reduce((least, next) => (next < least ? next : least));
      return { day, spentUnits: Number(spent - back) };
    });
    return back;
  };
  return {
    ledgerBroken: () => broken,
    countedDeposit: (amount, day) => ({ refund: (refunded) => credit(day, amount, refunded) }),
    fits: async (amount) => refusal(await ledgerToday(), amount),
    async reserve(amount, payment) {
      const refused = refusal(await ledgerToday(), amount);
      if (refused !== null) return { type: "refused", message: refused };
      // Held from the cap check on (no await in between) until the ledger counts it.
      const release = pending.hold(amount);
      // Keyed for refunds, which name payments by the key the client reserved them under.
      const key = payment === undefined ? `unkeyed ${unkeyed++}` : `payment ${payment.key}`;
      return {
        type: "reserved",
        reservation: {
          async spend() {
            await ledger.update((day) => ({
              day: today,
              spentUnits: Number((day.day === today ? BigInt(day.spentUnits) : 0n) + amount),
            }));
            counted.set(key, amount);
            release();
          },
          async release() {
            release();
            const held = counted.get(key) ?? 0n;
            counted.delete(key);
            if (held > 0n) await credit(today, held, held);
          },
        },
      };
    },
    async refund(payments, amount) {
      let freed = 0n;
      for (const payment of payments) {
        const key = `payment ${payment.key}`;
        const held = counted.get(key);
        if (held === undefined || freed >= amount) continue;
        const back = await credit(today, held, amount - freed);
        counted.set(key, held - back);
        freed += back;
      }
      return freed;
    },
  };
}

// Says what is true: the cap may not be reached yet, only too close for this check's price. And
// when "today" ends: the cap counts UTC days, whose midnight is the afternoon in Kiritimati.
function capMessage(spent: bigint, cap: bigint, price: bigint, today: string): string {
  const left = cap > spent ? cap - spent : 0n;
  const again = capStartsAgainAt(today);
  if (left === 0n) {
    return `Today's spending cap of ${formatUsdc(cap)} is used up (${formatUsdc(spent)} spent). It starts again at ${again}; raise it in the settings to pay before then.`;
  }
  return `This check costs ${formatUsdc(price)}, more than the ${formatUsdc(left)} left of today's ${formatUsdc(cap)} cap (${formatUsdc(spent)} spent). Raise the cap in the settings, or try a cheaper check; the cap starts again at ${again}.`;
}
