import type { x402HTTPResourceServer } from "@x402/core/server";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";

/**
 * The official x402 middleware of the paid routes, behind its own set-up: x402 reads what the
 * facilitator supports once, before a route's first challenge, and the official middleware, left
 * to do it, lets a failure of that read escape the request (a 500 "internal error" to a payer
 * whose payment was never looked at). Here the read is made once, on a paid route's first request
 * (the server read the facilitator already to start, so it is warm), and tried again on the next
 * request when it failed; while the facilitator cannot be read, a paid route answers 503
 * `facilitator_unavailable`: nothing was verified or charged.
 * @example const x402 = facilitatorSynced(httpServer, paymentMiddlewareFromHTTPServer(httpServer, undefined, undefined, false), log);
 */
export function facilitatorSynced(
  httpServer: Pick<x402HTTPResourceServer, "initialize">,
  x402: MiddlewareHandler,
  /** Where a failed read is reported (the server's log). */
  onError: (error: unknown) => void,
): MiddlewareHandler<AppEnv> {
  let synced: Promise<void> | null = null;
  const sync = () => {
    synced ??= httpServer.initialize().catch((error: unknown) => {
      synced = null;
      throw error;
    });
    return synced;
  };
  return async function facilitatorSynced(c, next) {
    try {
      await sync();
    } catch (error) {
      onError(error);
      return jsonError(
        c,
        503,
        "facilitator_unavailable",
        "The payment facilitator cannot be reached, so no payment can be taken now. Nothing was charged; try again shortly.",
      );
    }
    return x402(c, next);
  };
}
