import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { Logger } from "pino";
import { requestHeader } from "../http/requestHeader";
import { setResponseHeader } from "../http/responseHeader";
import type { Metrics } from "./createMetrics";

export type ObserveRequestsDeps = { logger: Logger; metrics: Metrics };

// Routes that take a payment: their answers tell the settlement outcome.
const paidPaths = new Set(["/check", "/deep"]);
// The methods a label names; Node's parser takes some thirty more (PROPFIND, M-SEARCH, ...),
// each of which would be a series of its own per route and status: they are all "other".
const labelledMethods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * The first middleware of every request: a request id (nginx's X-Request-Id when it sent one, else
 * a new one; echoed in the answer), one JSON log line, and the request metrics labelled by the
 * route pattern (never the raw path, so an address in a URL does not make a new series) and the
 * method (an unusual one as "other"), so the series do not grow with what clients send.
 * One plain function, not async and not Hono's requestId middleware wrapped in ours: each layer
 * and each await costs the hottest route (/validate) a share of its throughput (npm run bench).
 * @example app.use("*", observeRequests({ logger, metrics }));
 */
export function observeRequests(deps: ObserveRequestsDeps): MiddlewareHandler {
  return function observeRequests(c, next) {
    const id = requestIdOf(c);
    // Where Hono's requestId middleware keeps it, for anything downstream that wants it.
    c.set("requestId" as never, id as never);
    // Read and written beside Hono's Request and Response, so node-server keeps its fast path.
    setResponseHeader(c, "X-Request-Id", id);
    const started = performance.now();
    return next().then(() => {
      const seconds = (performance.now() - started) / 1000;
      // The pattern of the deepest handler the request reached (the route, or the middleware that
      // answered); the last matched one would be a catch-all middleware registered after it.
      const route = routeLabel(routePath(c));
      const method = c.req.method;
      const methodLabel = labelledMethods.has(method) ? method : "other";
      const status = c.res.status;
      deps.metrics.requests.inc({ method: methodLabel, route, status: String(status) });
      deps.metrics.requestSeconds.observe({ method: methodLabel, route }, seconds);
      const outcome = settlementOutcome(c);
      if (outcome) deps.metrics.settlements.inc({ outcome });
      deps.logger.info(
        {
          reqId: id,
          method,
          route,
          status,
          ms: Math.round(seconds * 1000),
          ...(outcome && { payment: outcome }),
        },
        "request",
      );
    });
  };
}

/**
 * The proxy's X-Request-Id when it is one we can log as it is (at most 255 of [A-Za-z0-9_=-], as
 * Hono's requestId accepts), else a new UUID: a log line cannot be forged through it.
 */
function requestIdOf(c: Context): string {
  const incoming = requestHeader(c, "x-request-id");
  return incoming && incoming.length <= 255 && !/[^\w\-=]/.test(incoming)
    ? incoming
    : crypto.randomUUID();
}

function routeLabel(path: string): string {
  return path === "" || path === "*" || path === "/*" ? "unmatched" : path;
}

/** What happened to the payment a request carried (undefined when it carried none). */
function settlementOutcome(c: Context) {
  if (!paidPaths.has(c.req.path)) return undefined;
  if (!requestHeader(c, "payment-signature") && !requestHeader(c, "x-payment")) return undefined;
  const response = c.res;
  if (response.status === 200 && response.headers.has("payment-response")) return "settled";
  if (response.status === 402) return "refused";
  // A failed check (400, 503) is never charged: the payment was not settled.
  return "not_charged";
}
