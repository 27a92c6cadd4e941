import type { AuthorizationKey } from "../../paymentRecords/paymentRecordStore";

/** How long a paid check is answered again to a signed-in payer without a new payment. */
export const rereadWindowSeconds = 600;

/** What a paid request asked for, as a signed-in re-read must ask it again. */
export type PaidRequest = { payer: string; route: string; address: string; chain: string };

/**
 * The sign-in state of one API process: which authorization paid for each recent request (so a
 * signed-in re-read finds its payment record by the records store's own key), and the sign-in
 * nonces already used (so a signed message is not replayed). Both forget after the re-read window.
 */
export type SignInState = {
  rememberPaid(request: PaidRequest, payment: AuthorizationKey): void;
  recentPayment(request: PaidRequest): AuthorizationKey | undefined;
  nonceUsed(nonce: string): boolean;
  /** Marks the nonce used; false when it already was (the message is a replay). */
  useNonce(nonce: string): boolean;
};

/**
 * In memory, per process (the re-read window is short; a replica that does not know a payment
 * answers the usual 402 and `/receipts` still finds the report).
 * @example const state = createSignInState(); state.useNonce(payload.nonce);
 */
export function createSignInState(clock: () => number = Date.now): SignInState {
  const paid = new Map<string, { payment: AuthorizationKey; at: number }>();
  const nonces = new Map<string, number>();
  const windowMs = rereadWindowSeconds * 1000;
  const keyOf = (r: PaidRequest) =>
    [r.payer.toLowerCase(), r.route, r.address.toLowerCase(), r.chain].join("|");
  const prune = () => {
    const oldest = clock() - windowMs;
    for (const [key, entry] of paid) if (entry.at < oldest) paid.delete(key);
    for (const [nonce, at] of nonces) if (at < oldest) nonces.delete(nonce);
  };
  return {
    rememberPaid(request, payment) {
      prune();
      paid.set(keyOf(request), { payment, at: clock() });
    },
    recentPayment(request) {
      const entry = paid.get(keyOf(request));
      return entry && entry.at >= clock() - windowMs ? entry.payment : undefined;
    },
    nonceUsed: (nonce) => nonces.has(nonce),
    useNonce(nonce) {
      prune();
      if (nonces.has(nonce)) return false;
      nonces.set(nonce, clock());
      return true;
    },
  };
}
