import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { type AddressInfo, Server as NetServer } from "node:net";
import type { Http2Bindings, HttpBindings } from "@hono/node-server";
import { answerClientErrors } from "../http/answerClientErrors";
import { keepIdleConnections } from "../http/keepIdleConnections";
import { serveApi } from "../http/serveApi";

export type DrainingServer = {
  url: string;
  port: number;
  /** True from the first drain() call: readiness turns 503 so the proxy stops sending traffic. */
  draining: () => boolean;
  /** Requests being answered right now. */
  inFlight: () => number;
  /**
   * Stops accepting connections, lets every request in flight finish (a paid one settles and
   * records its receipt) to the last byte its client reads, answers a request on a keep-alive
   * connection with `Connection: close`, and resolves when none is left (idle connections are
   * closed then) or after `timeoutMs` (then the rest are cut).
   */
  drain: (timeoutMs: number) => Promise<{ drained: boolean; cut: number }>;
};

type FetchApp = {
  fetch: (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>;
};

/**
 * Serves a Hono app with @hono/node-server, counting requests in flight so a SIGTERM can drain
 * them instead of cutting them off. While draining, every answer carries `Connection: close`.
 * @example const server = await serveWithDrain(app, { port: 8402 }); process.on("SIGTERM", () => server.drain(30_000));
 */
export function serveWithDrain(
  app: FetchApp,
  options: { port: number; host?: string },
): Promise<DrainingServer> {
  const host = options.host ?? "127.0.0.1";
  let draining = false;
  let inFlight = 0;
  const idle: Array<() => void> = [];
  return new Promise((resolve, reject) => {
    const server = serveApi(
      app.fetch as Parameters<typeof serveApi>[0],
      { port: options.port, hostname: host },
      (info: AddressInfo) => {
        const shownHost = host === "0.0.0.0" ? "127.0.0.1" : host;
        resolve({
          url: `http://${shownHost}:${info.port}`,
          port: info.port,
          draining: () => draining,
          inFlight: () => inFlight,
          drain: (timeoutMs) => drain(server as Server, timeoutMs),
        });
      },
    ) as Server;
    keepIdleConnections(server);
    answerClientErrors(server);
    // Counted at the socket level, until the last byte of the answer is written: a report whose
    // body is still streaming is in flight. Ahead of node-server's own listener, which writes an
    // answer made at once (/validate's) before any listener after it runs: setting the header
    // there would throw, and the request would never be counted out.
    server.prependListener("request", (_request: IncomingMessage, response: ServerResponse) => {
      inFlight++;
      if (draining) response.setHeader("Connection", "close");
      response.once("close", () => {
        inFlight--;
        if (inFlight === 0) for (const wake of idle.splice(0)) wake();
      });
    });
    server.once("error", reject);
  });

  async function drain(server: Server, timeoutMs: number) {
    draining = true;
    // Not http's server.close(): it also closes at once every connection Node takes for idle, and
    // Node takes for idle one whose answer the app handed over in full while the socket is still
    // writing it to a slow reader, which then gets it cut short. Only new connections are
    // refused; a request on one still open is answered with Connection: close.
    const closed = new Promise<void>((done) =>
      NetServer.prototype.close.call(server, () => done()),
    );
    const settled =
      inFlight === 0
        ? Promise.resolve(true)
        : new Promise<true>((wake) => idle.push(() => wake(true)));
    const timedOut = new Promise<false>((done) => setTimeout(() => done(false), timeoutMs).unref());
    const drained = await Promise.race([settled, timedOut]);
    const cut = inFlight;
    // Keep-alive sockets with nothing in flight carry no work; past the deadline the rest go too.
    server.closeAllConnections();
    await closed;
    return { drained, cut };
  }
}
