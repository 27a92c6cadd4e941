import type { SentAuthorization } from "@presend/client";
import type { Address } from "viem";
import type { PendingRecovery } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";

/** Pending recoveries kept at most (the oldest beyond are dropped). */
export const recoveriesKept = 20;

export type PendingRecoveryDeps = {
  recoveries: ValidatedItem<PendingRecovery[]>;
  randomId: () => string;
  now: () => Date;
};

export type PendingRecoveryLog = {
  /**
   * Records an EIP-3009 TransferWithAuthorization the wallet just signed, before the client
   * sends it: whatever happens next (the answer lost, the service worker stopped), the report
   * can be fetched again by payer and nonce. Other typed data (a channel deposit) is not a
   * payment of its own and is left out.
   */
  recordSigned(typedData: {
    primaryType?: string;
    message: Record<string, unknown>;
  }): Promise<void>;
  /**
   * Records a payment the client names just before sending it (a channel voucher: its record
   * nonce, which the session key's signature alone does not give). A later attempt of the same
   * check (the first refused, nothing charged) replaces the entry with its own nonce.
   */
  recordSent(authorization: SentAuthorization): Promise<void>;
  /**
   * Notes that the daily cap counted `amount` on `day` for this payment: only an exact
   * authorization's entry of that amount (a channel's deposit is counted whole, not per voucher).
   */
  counted(amount: bigint, day: string): Promise<void>;
  /** Forgets the recorded payment ("done"), or notes how the last attempt ended; its id, if any. */
  settle(change: Partial<PendingRecovery> | "done"): Promise<string | undefined>;
};

/**
 * The pending recovery of one paid check: at most one entry in `recoveries`, written before the
 * signed payment leaves and kept until its report arrives or the answer proves no charge.
 * @example const pending = createPendingRecovery({ apiUrl, route: "check", address, chain: "base" }, deps)
 */
export function createPendingRecovery(
  check: Pick<PendingRecovery, "apiUrl" | "route" | "address" | "chain">,
  deps: PendingRecoveryDeps,
): PendingRecoveryLog {
  let id: string | undefined;
  // The entry is an exact authorization's (recordSigned), of this amount: what the cap counts.
  let exactAmount: string | undefined;
  const record = async (
    entry: Omit<
      PendingRecovery,
      "id" | keyof typeof check | "sentAt" | "lastAttempt" | "transaction"
    >,
  ) => {
    const written: PendingRecovery = {
      id: deps.randomId(),
      ...check,
      ...entry,
      transaction: null,
      sentAt: deps.now().toISOString(),
      lastAttempt: null,
    };
    id = written.id;
    await deps.recoveries.update((list) => [written, ...list].slice(0, recoveriesKept));
  };
  return {
    async recordSigned(typedData) {
      if (
        typedData.primaryType !== undefined &&
        typedData.primaryType !== "TransferWithAuthorization"
      ) {
        return;
      }
      const { from, to, value, nonce } = typedData.message;
      if (typeof nonce !== "string" || typeof from !== "string") return;
      await record({
        payer: from as Address,
        nonce: nonce.toLowerCase(),
        amount: String(value),
        payTo: to as Address,
      });
      exactAmount = String(value);
    },
    async recordSent(authorization) {
      const sent = {
        payer: authorization.payer,
        nonce: authorization.nonce.toLowerCase(),
        amount: authorization.amount,
        payTo: authorization.payTo,
      };
      exactAmount = undefined;
      if (id === undefined) return record(sent);
      const current = id;
      await deps.recoveries.update((list) =>
        list.map((r) =>
          r.id === current ? { ...r, ...sent, sentAt: deps.now().toISOString() } : r,
        ),
      );
    },
    async counted(amount, day) {
      if (id === undefined || exactAmount !== String(amount)) return;
      const current = id;
      await deps.recoveries.update((list) =>
        list.map((r) => (r.id === current ? { ...r, countedOn: day } : r)),
      );
    },
    async settle(change) {
      if (id === undefined) return undefined;
      const settled = id;
      await deps.recoveries.update((list) =>
        change === "done"
          ? list.filter((r) => r.id !== settled)
          : list.map((r) => (r.id === settled ? { ...r, ...change } : r)),
      );
      return settled;
    },
  };
}
