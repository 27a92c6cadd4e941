import type { AddressInfo } from "node:net";
import { answerClientErrors } from "./answerClientErrors";
import { keepIdleConnections } from "./keepIdleConnections";
import { serveApi } from "./serveApi";

export type Listening = { url: string; port: number; close: () => Promise<void> };

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
    const server = serveApi(
      app.fetch as (request: Request) => Response,
      { port: options.port, hostname: host },
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
    keepIdleConnections(server);
    answerClientErrors(server);
    server.once("error", reject);
  });
}
