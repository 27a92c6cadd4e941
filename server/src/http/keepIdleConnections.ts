import type { Server } from "node:http";

/**
 * How long an idle keep-alive connection stays open: longer than any proxy in front keeps one
 * (deploy/nginx.conf 30 s, cloud load balancers 60 s). Node's default of 5 s closes connections the
 * proxy still counts as open; a request the proxy sends down one as it closes gets a 502, and a
 * paid POST is never sent again.
 */
export const idleKeepAliveMs = 65_000;

/**
 * Sets `server` to keep idle connections idleKeepAliveMs (and its header timeout just past it, as
 * Node requires).
 * @example keepIdleConnections(serve({ fetch: app.fetch, port }) as Server);
 */
export function keepIdleConnections(server: Pick<Server, "keepAliveTimeout" | "headersTimeout">) {
  server.keepAliveTimeout = idleKeepAliveMs;
  server.headersTimeout = idleKeepAliveMs + 1_000;
}
