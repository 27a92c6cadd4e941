import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";

const allowHeaders = [
  "Content-Type",
  "PAYMENT-SIGNATURE",
  "X-Payment",
  "Access-Control-Expose-Headers",
];
const exposeHeaders = ["PAYMENT-REQUIRED", "PAYMENT-RESPONSE", "ETag"];

/**
 * CORS so browser clients can read the x402 headers and pay (DESIGN §4).
 * GET/HEAD answers get their two headers through `c.header()` before the handler runs: Hono's cors()
 * reads the Origin header and edits the finished response, which makes @hono/node-server build full
 * Request/Response objects and costs /validate most of its throughput. Everything else, preflights
 * included, goes through Hono's cors() unchanged.
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
  const exposed = exposeHeaders.join(",");
  return async function apiCors(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD") return full(c, next);
    c.header("Access-Control-Allow-Origin", "*");
    c.header("Access-Control-Expose-Headers", exposed);
    await next();
  };
}
