import type { Context, MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import { routePath } from "hono/route";
import type { Logger } from "pino";
import { requestHeader } from "../http/requestHeader";
import { setResponseHeader } from "../http/responseHeader";
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
  // Hono's requestId keeps the id on the context; the header is read (requestHeader) and written
  // here, so the request stays on node-server's fast path.
  const assignId = requestId({
    headerName: "",
    // An incoming id with characters outside [A-Za-z0-9_=-] (or over 255 long) is replaced, as
    // Hono's own check does, so a log line cannot be forged through it.
    generator: (c) => {
      const incoming = requestHeader(c, "x-request-id");
      return incoming && incoming.length <= 255 && !/[^\w\-=]/.test(incoming)
        ? incoming
        : crypto.randomUUID();
    },
  });
  return (c, next) => {
    return assignId(c, async () => {
      setResponseHeader(c, "X-Request-Id", c.get("requestId" as never));
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
      const outcome = settlementOutcome(c);
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
  };
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
