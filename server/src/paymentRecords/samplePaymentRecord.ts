import type { NewPaymentRecord } from "./paymentRecordStore";

/**
 * A valid new payment record for tests and the bench; `n` varies the nonce.
 * @example await store.begin(samplePaymentRecord(1));
 */
export function samplePaymentRecord(n: number, overrides: Partial<NewPaymentRecord> = {}) {
  return {
    payer: "0x9Cb2e6859F097014298CC31c8d39D4217502960f",
    nonce: `0x${n.toString(16).padStart(64, "0")}`,
    network: "eip155:8453",
    asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    payTo: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
    route: "/check",
    amount: "10000",
    validBefore: 1_900_000_000,
    report: { verdict: { level: "ok" }, n },
    ...overrides,
  } satisfies NewPaymentRecord;
}
