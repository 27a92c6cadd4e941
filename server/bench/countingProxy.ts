import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

export type CountingProxy = { url: string; count: () => number; close: () => Promise<void> };

/**
 * A loopback HTTP proxy in front of one RPC URL that counts the requests passing through it, so
 * "one upstream request per chain" is observed on the wire rather than assumed. With `delayMs`
 * it holds every request that long before forwarding it: the round trip of a public RPC, where
 * the network, not five local anvils on two cores, dominates.
 */
export function startCountingProxy(
  target: string,
  options: { delayMs?: number } = {},
): Promise<CountingProxy> {
  const upstream = new URL(target);
  const delayMs = options.delayMs ?? 0;
  let requests = 0;
  const server = createServer((incoming, outgoing) => {
    requests++;
    if (delayMs > 0) incoming.pause();
    const forward = () => {
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: incoming.url,
          method: incoming.method,
          headers: incoming.headers,
        },
        (answer) => {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(outgoing);
        },
      );
      forwarded.on("error", () => outgoing.destroy());
      incoming.pipe(forwarded);
      incoming.resume();
    };
    if (delayMs > 0) setTimeout(forward, delayMs);
    else forward();
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        count: () => requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
