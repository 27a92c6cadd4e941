import type { AuthorizationKey } from "../records/paymentRecords";

/** How long a paid check is answered again to a signed-in payer without a new payment. */
export const rereadWindowSeconds = 600;

/**
 * What a paid request asked for, as a signed-in re-read must ask it again. The sender is part of
 * it: a report made without one says nothing about a poisoning of that sender's payments, so it
 * never answers a check that names one (nor the other way round). `from` is "" when none was named.
 */
export type PaidRequest = {
  payer: string;
  route: string;
  address: string;
  chain: string;
  from: string;
};

/**
 * The sign-in state: which authorization paid for each recent request (so a signed-in re-read
 * finds its payment record by the records store's own key), and the sign-in nonces already used
 * (so a signed message is not replayed). A paid request is forgotten after the re-read window, a
 * nonce once its message can no longer be valid. In memory for one process
 * (createSignInState); shared by every replica of a fleet in Redis (createRedisSignInState).
 * A shared state that cannot answer rejects: the caller refuses the sign-in (fails closed).
 */
export type SignInState = {
  rememberPaid(request: PaidRequest, payment: AuthorizationKey): Promise<void>;
  recentPayment(request: PaidRequest): Promise<AuthorizationKey | undefined>;
  nonceUsed(nonce: string): Promise<boolean>;
  /**
   * Marks the nonce used until `expiresAt` (ms since epoch: when its message stops being valid);
   * false when it already was (the message is a replay).
   */
  useNonce(nonce: string, expiresAt: number): Promise<boolean>;
};

/** The one key of a paid request: payer, address and sender compare in any case. */
export function paidRequestKey(request: PaidRequest): string {
  return [
    request.payer.toLowerCase(),
    request.route,
    request.address.toLowerCase(),
    request.chain,
    request.from.toLowerCase(),
  ].join("|");
}

/**
 * In memory, for one process: the default without REDIS_URL (a single API process).
 * @example const state = createSignInState(); await state.useNonce(payload.nonce, expiresAt);
 */
export function createSignInState(clock: () => number = Date.now): SignInState {
  const paid = new Map<string, { payment: AuthorizationKey; at: number }>();
  const nonces = new Map<string, number>();
  const windowMs = rereadWindowSeconds * 1000;
  const prune = () => {
    const now = clock();
    for (const [key, entry] of paid) if (entry.at < now - windowMs) paid.delete(key);
    for (const [nonce, expiresAt] of nonces) if (expiresAt <= now) nonces.delete(nonce);
  };
  return {
    async rememberPaid(request, payment) {
      prune();
      paid.set(paidRequestKey(request), { payment, at: clock() });
    },
    async recentPayment(request) {
      const entry = paid.get(paidRequestKey(request));
      return entry && entry.at >= clock() - windowMs ? entry.payment : undefined;
    },
    async nonceUsed(nonce) {
      const expiresAt = nonces.get(nonce);
      return expiresAt !== undefined && expiresAt > clock();
    },
    async useNonce(nonce, expiresAt) {
      prune();
      if (nonces.has(nonce)) return false;
      nonces.set(nonce, expiresAt);
      return true;
    },
  };
}
