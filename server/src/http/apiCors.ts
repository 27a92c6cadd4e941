import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import type { Context, MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { setResponseHeader } from "./responseHeader";

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
  // A 429 says when to come back: a page that cannot read these can only guess.
  "Retry-After",
  "RateLimit",
  "RateLimit-Policy",
];

/** The CORS headers of a GET answer, as a plain object a handler can put on its own Response. */
export const corsResponseHeaders = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": exposeHeaders.join(","),
} as const;

// Answers built by corsJson() already carry the CORS headers; apiCors leaves them untouched.
const answersWithCors = new WeakSet<Response>();

// One header only: Hono keeps a single header as the plain object it was given, so
// @hono/node-server writes the answer on its fast path; with two or more it builds a `Headers`.
const jsonContentType = { "content-type": "application/json" } as const;

/**
 * A JSON answer that already carries the CORS headers, for hot GET routes. Its own headers are
 * one plain object and the CORS headers go through setResponseHeader (on Node's response under
 * node-server), so the answer stays on node-server's fast path; headers the middleware set
 * before the handler (request id, rate-limit state) are on it too.
 * @example return corsJson(c, { ok: true });
 */
export function corsJson(c: Context, body: unknown, status: ContentfulStatusCode = 200): Response {
  for (const name in corsResponseHeaders) {
    setResponseHeader(c, name, corsResponseHeaders[name as keyof typeof corsResponseHeaders]);
  }
  const response = c.body(JSON.stringify(body), status, jsonContentType);
  answersWithCors.add(response);
  return response;
}

/**
 * CORS so browser clients can read the x402 headers and pay.
 * Everything but GET/HEAD (preflights included) goes through Hono's cors(); an answer that is not
 * a preflight's gets its two headers again if it lost them on the way. GET/HEAD answers get their two headers after the handler, unless it built them with corsJson(): Hono's
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
    if (c.req.method === "OPTIONS") return full(c, next);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      await full(c, next);
      // Hono's cors() sets its headers before the route runs; an answer a later middleware made
      // in place of the route's (the payment ledger's 502s and 503s) would go out without them,
      // and a browser would hide it from the page that paid.
      for (const [name, value] of Object.entries(corsResponseHeaders)) {
        if (!c.res.headers.has(name)) c.res.headers.set(name, value);
      }
      return;
    }
    await next();
    if (answersWithCors.has(c.res)) return;
    for (const [name, value] of Object.entries(corsResponseHeaders)) c.res.headers.set(name, value);
  };
}
