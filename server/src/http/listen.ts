import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

export type Listening = { url: string; port: number; close: () => Promise<void> };

/**
 * How long an idle keep-alive connection stays open: longer than any proxy in front keeps one
 * (deploy/nginx.conf 30 s, cloud load balancers 60 s). Node's default of 5 s closes connections the
 * proxy still counts as open; a request the proxy sends down one as it closes gets a 502, and a
 * paid POST is never sent again.
 */
export const idleKeepAliveMs = 65_000;

type FetchApp = { fetch: (request: Request, ...rest: never[]) => Response | Promise<Response> };

/**
 * Serves a Hono app with @hono/node-server and resolves once it listens (port 0 = a free port).
 * @example const server = await listen(app, { port: 0 }); await fetch(`${server.url}/health`);
 */
export function listen(
  app: FetchApp,
  options: { port: number; host?: string } = { port: 0 },
): Promise<Listening> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch as (request: Request) => Response, port: options.port, hostname: host },
      (info: AddressInfo) => {
        const shownHost = host === "0.0.0.0" ? "127.0.0.1" : host;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          port: info.port,
          close: () =>
            new Promise<void>((done) => {
              // Keep-alive sockets would hold close() open; they carry no unfinished work here.
              if ("closeAllConnections" in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
    if ("keepAliveTimeout" in server) {
      server.keepAliveTimeout = idleKeepAliveMs;
      // Node requires the header timeout to outlast the keep-alive one.
      server.headersTimeout = idleKeepAliveMs + 1_000;
    }
    server.once("error", reject);
  });
}
