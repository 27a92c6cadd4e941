import type { FacilitatorClient } from "@x402/core/server";
import { SettleError, VerifyError } from "@x402/core/types";

/** How the facilitator answered last: `unknown` before anything was asked of it. */
export const facilitatorStates = ["reachable", "unreachable", "unknown"] as const;
export type FacilitatorState = (typeof facilitatorStates)[number];

export type FacilitatorReachability = {
  state: FacilitatorState;
  /** When that was found (ISO time), null before. */
  checkedAt: string | null;
};

export type WatchedFacilitator = {
  /** The facilitator, every call of which says whether it answered. */
  client: FacilitatorClient;
  reachability: () => FacilitatorReachability;
  /**
   * Asks the facilitator's /supported again when the last finding is older than `probeAfterMs`
   * (one probe at a time; the caller never waits for it), so a server without paid traffic
   * notices a facilitator that went away or came back.
   */
  probe: () => void;
};

/**
 * The facilitator as presend last found it, for /readyz and /metrics (never for readiness: free
 * routes serve without it). Every verification, settlement and /supported call is a finding: an
 * answer, even one refusing the payment (VerifyError, SettleError), is `reachable`; no answer
 * (down, past its deadline, a server error) is `unreachable`.
 * @example const watched = watchedFacilitator(facilitator, { probeAfterMs: 15_000 });
 */
export function watchedFacilitator(
  inner: FacilitatorClient,
  options: { probeAfterMs: number; now?: () => number },
): WatchedFacilitator {
  const now = options.now ?? Date.now;
  let state: FacilitatorState = "unknown";
  let checkedAt: number | null = null;
  let probing = false;
  const observe = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      const answer = await call();
      state = "reachable";
      return answer;
    } catch (error) {
      state =
        error instanceof VerifyError || error instanceof SettleError ? "reachable" : "unreachable";
      throw error;
    } finally {
      checkedAt = now();
    }
  };
  const client: FacilitatorClient = {
    verify: (...args) => observe(() => inner.verify(...args)),
    settle: (...args) => observe(() => inner.settle(...args)),
    getSupported: () => observe(() => inner.getSupported()),
  };
  return {
    client,
    reachability: () => ({
      state,
      checkedAt: checkedAt === null ? null : new Date(checkedAt).toISOString(),
    }),
    probe() {
      if (probing || (checkedAt !== null && now() - checkedAt < options.probeAfterMs)) return;
      probing = true;
      client
        .getSupported()
        .catch(() => {})
        .finally(() => {
          probing = false;
        });
    },
  };
}
