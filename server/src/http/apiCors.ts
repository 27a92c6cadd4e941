import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";

const allowHeaders = [
  "Content-Type",
  "PAYMENT-SIGNATURE",
  "X-Payment",
  "SIGN-IN-WITH-X",
  "Access-Control-Expose-Headers",
];
const exposeHeaders = [
  "PAYMENT-REQUIRED",
  "PAYMENT-RESPONSE",
  "PRESEND-RECEIPT",
  reportSignatureHeader,
  "ETag",
];

/** The CORS headers of a GET answer, as a plain object a handler can put on its own Response. */
export const corsResponseHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": exposeHeaders.join(","),
} as const;

// Answers built by corsJson() already carry the CORS headers; apiCors leaves them untouched.
const answersWithCors = new WeakSet<Response>();

/**
 * A JSON answer that already carries the CORS headers, built through the context so headers the
 * middleware set before the handler (request id, rate-limit state) are on it too. Its headers
 * are given as a plain object, so @hono/node-server writes it on its fast path. Used by hot GET
 * routes.
 * @example return corsJson(c, { ok: true });
 */
export function corsJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  const response = c.body(JSON.stringify(body), status, jsonCorsHeaders);
  answersWithCors.add(response);
  return response;
}

const jsonCorsHeaders = { ...corsResponseHeaders, "content-type": "application/json" };

/**
 * CORS so browser clients can read the x402 headers and pay.
 * Everything but GET/HEAD (preflights included) goes through Hono's cors() unchanged. GET/HEAD
 * answers get their two headers after the handler, unless it built them with corsJson(): Hono's
 * cors() reads the Origin header and edits the finished response, which makes @hono/node-server
 * build full Request/Response objects and costs /validate much of its throughput.
 * @example app.use("*", apiCors());
 */
export function apiCors(): MiddlewareHandler {
  const full = cors({
    origin: "*",
    allowMethods: ["GET", "POST", "OPTIONS"],
    allowHeaders,
    exposeHeaders,
    maxAge: 600,
  });
  return async function apiCors(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return full(c, next);
    await next();
    if (answersWithCors.has(c.res)) return;
    for (const [name, value] of Object.entries(corsResponseHeaders)) c.res.headers.set(name, value);
  };
}
