import type { ServerResponse } from "node:http";
import type { Context } from "hono";

/**
 * Sets a header of the answer to come. When @hono/node-server serves the request it goes on
 * Node's own response (which merges it into the head node-server writes), so the answer keeps its
 * plain-object headers and node-server's fast path: `c.header()` before the handler makes Hono
 * build a `Headers` object for every request, which costs a hot route like /validate a good part
 * of its throughput. Elsewhere (app.request in tests, other runtimes) it is `c.header()`.
 * @example setResponseHeader(c, "X-Request-Id", id);
 */
export function setResponseHeader(c: Context, name: string, value: string): void {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.setHeader === "function" && !outgoing.headersSent) {
    outgoing.setHeader(name, value);
  } else {
    c.header(name, value);
  }
}
