import { PaymentError } from "@presend/shared/errors/PaymentError";
import {
  AuthorizationAlreadyRecorded,
  type AuthorizationKey,
  canTransition,
  NewPaymentRecordSchema,
  normalizeKey,
  noValidBeforeBound,
  type PaymentRecord,
  type PaymentRecordStore,
  type PaymentStatus,
  TransactionHashSchema,
} from "./paymentRecordStore";

/**
 * A PaymentRecordStore in process memory: gone with the process, so never the server's store.
 * The bench's baseline (the paid request without a durable write) and a fake for unit tests.
 * @example const records = createMemoryPaymentRecords();
 */
export function createMemoryPaymentRecords(): PaymentRecordStore {
  const rows = new Map<string, PaymentRecord>();
  // Which reconciler pass last looked at a record (a counter, never a clock): unresolved's order.
  const checked = new Map<string, number>();
  let checks = 0;
  const id = (key: AuthorizationKey) => {
    const { payer, nonce } = normalizeKey(key);
    return `${payer}:${nonce}`;
  };
  const transition = (key: AuthorizationKey, to: PaymentStatus, tx: string | null | "keep") => {
    const current = rows.get(id(key));
    if (current === undefined) return undefined;
    if (!canTransition(current.status, to)) return current;
    const next: PaymentRecord = {
      ...current,
      status: to,
      tx: tx === "keep" ? current.tx : tx === null ? null : tx.toLowerCase(),
      updatedAt: new Date().toISOString(),
    };
    rows.set(id(key), next);
    return next;
  };
  return {
    async begin(record) {
      const valid = NewPaymentRecordSchema.parse(record);
      const existing = rows.get(id(valid));
      if (existing !== undefined) throw new AuthorizationAlreadyRecorded(existing);
      if (valid.paymentId != null) {
        for (const row of rows.values()) {
          if (row.paymentId === valid.paymentId)
            throw new PaymentError("payment id already recorded", { code: "payment_id_recorded" });
        }
      }
      const now = new Date().toISOString();
      const stored: PaymentRecord = {
        ...valid,
        ...normalizeKey(valid),
        asset: valid.asset.toLowerCase(),
        payTo: valid.payTo.toLowerCase(),
        report: structuredClone(valid.report ?? null),
        paymentId: valid.paymentId ?? null,
        requestHash: valid.requestHash ?? null,
        status: "pending",
        tx: null,
        reportSignature: null,
        createdAt: new Date(valid.createdAt ?? now).toISOString(),
        updatedAt: now,
      };
      rows.set(id(valid), stored);
      return stored;
    },
    async markSettled(key, tx) {
      return transition(key, "settled", TransactionHashSchema.parse(tx));
    },
    async markUnknown(key, tx) {
      return transition(key, "unknown", tx);
    },
    async markFailed(key) {
      return transition(key, "failed", "keep");
    },
    async keepReportSignature(key, signature) {
      const current = rows.get(id(key));
      if (current === undefined || current.status !== "settled" || current.reportSignature)
        return current;
      const next = { ...current, reportSignature: signature, updatedAt: new Date().toISOString() };
      rows.set(id(key), next);
      return next;
    },
    async byAuthorization(key) {
      return rows.get(id(key));
    },
    async byPaymentId(paymentId) {
      for (const row of rows.values()) if (row.paymentId === paymentId) return row;
      return undefined;
    },
    async byTransaction(tx) {
      const wanted = tx.toLowerCase();
      for (const row of rows.values()) {
        if (row.status === "settled" && row.tx === wanted) return row;
      }
      return undefined;
    },
    async unresolved(limit = 100, filter = {}) {
      const below = filter.validBeforeBelow ?? noValidBeforeBound;
      return [...rows.values()]
        .filter((row) => row.status === "pending" || row.status === "unknown")
        .filter((row) => row.validBefore < below)
        .map((row, order) => ({ row, order, turn: checked.get(id(row)) ?? -1 }))
        .sort((a, b) => a.turn - b.turn || a.order - b.order)
        .slice(0, limit)
        .map(({ row }) => row);
    },
    async markChecked(keys) {
      checks++;
      for (const key of keys) if (rows.has(id(key))) checked.set(id(key), checks);
    },
    async count(status) {
      let n = 0;
      for (const row of rows.values()) if (status === undefined || row.status === status) n++;
      return n;
    },
    // Memory always takes a write.
    async writable() {},
    async close() {},
  };
}
