import type { IncomingMessage } from "node:http";
import type { Context } from "hono";

/**
 * A request header, read from Node's own parsed headers when @hono/node-server serves the
 * request: asking the Request object instead makes node-server build it in full (Headers, abort
 * signal), which costs a hot route like /validate about a third of its throughput. Elsewhere
 * (app.request in tests, other runtimes) it is the Request's header. Repeated headers read the
 * same either way: their values joined with ", ".
 * @example const forwarded = requestHeader(c, "x-forwarded-for");
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(", ") : value;
}
