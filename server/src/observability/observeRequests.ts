import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { routePath } from "hono/route";
import type { Logger } from "pino";
import type { Metrics } from "./createMetrics";

export type ObserveRequestsDeps = { logger: Logger; metrics: Metrics };

// Routes that take a payment: their answers tell the settlement outcome.
const paidPaths = new Set(["/check", "/deep"]);

/**
 * The first middleware of every request: a request id (nginx's X-Request-Id when it sent one, else
 * a new one; echoed in the answer), one JSON log line, and the request metrics labelled by the
 * route pattern (never the raw path, so an address in a URL does not make a new series).
 * @example app.use("*", observeRequests({ logger, metrics }));
 */
export function observeRequests(deps: ObserveRequestsDeps): MiddlewareHandler {
  const assignId = requestId({
    headerName: "X-Request-Id",
    // An incoming id with characters outside [A-Za-z0-9_=-] is replaced (Hono checks it), so a
    // log line cannot be forged through it.
    generator: () => crypto.randomUUID(),
  });
  return (c, next) =>
    assignId(c, async () => {
      const started = performance.now();
      await next();
      const seconds = (performance.now() - started) / 1000;
      // The pattern of the deepest handler the request reached (the route, or the middleware that
      // answered); the last matched one would be a catch-all middleware registered after it.
      const route = routeLabel(routePath(c));
      const method = c.req.method;
      const status = c.res.status;
      deps.metrics.requests.inc({ method, route, status: String(status) });
      deps.metrics.requestSeconds.observe({ method, route }, seconds);
      const outcome = settlementOutcome(c.req.path, c.req.raw.headers, c.res);
      if (outcome) deps.metrics.settlements.inc({ outcome });
      deps.logger.info(
        {
          reqId: c.get("requestId" as never),
          method,
          route,
          status,
          ms: Math.round(seconds * 1000),
          ...(outcome && { payment: outcome }),
        },
        "request",
      );
    });
}

function routeLabel(path: string): string {
  return path === "" || path === "*" || path === "/*" ? "unmatched" : path;
}

/** What happened to the payment a request carried (undefined when it carried none). */
function settlementOutcome(path: string, headers: Headers, response: Response) {
  if (!paidPaths.has(path)) return undefined;
  if (!headers.has("payment-signature") && !headers.has("x-payment")) return undefined;
  if (response.status === 200 && response.headers.has("payment-response")) return "settled";
  if (response.status === 402) return "refused";
  // A failed check (400, 503) is never charged: the payment was not settled.
  return "not_charged";
}
