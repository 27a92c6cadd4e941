import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";

/** The round trip a public RPC endpoint takes, held by a proxy's `delayMs`: every bench uses this one. */
export const publicRpcDelayMs = 30;

export type CountingProxy = { url: string; count: () => number; close: () => Promise<void> };

export type CountingProxyOptions = {
  /** Holds every request this long before answering: a public RPC's round trip. */
  delayMs?: number;
  /**
   * Answers a JSON-RPC request seen before from memory (ids rewritten to the new request's),
   * forwarding only the first of each: the chain's answer without the local node's CPU, as from
   * a remote endpoint whose work does not share this machine's two cores.
   */
  replay?: boolean;
};

type JsonRpcMessage = { id?: unknown } & Record<string, unknown>;
type Recorded = { requestIds: unknown[]; answers: Map<string, JsonRpcMessage> };

/** The request without its ids: the same question asked again is the same key. */
const keyOf = (body: unknown) =>
  JSON.stringify(
    Array.isArray(body)
      ? body.map(({ id: _id, ...rest }: JsonRpcMessage) => rest)
      : (({ id: _id, ...rest }: JsonRpcMessage) => rest)(body as JsonRpcMessage),
  );
const idsOf = (body: unknown) =>
  Array.isArray(body)
    ? body.map((entry: JsonRpcMessage) => entry.id)
    : [(body as JsonRpcMessage).id];

/**
 * A loopback HTTP proxy in front of one RPC URL that counts the requests passing through it, so
 * "one upstream request per chain" is observed on the wire rather than assumed. With `delayMs`
 * it holds every request that long: the round trip of a public RPC, where the network, not five
 * local anvils on two cores, dominates; with `replay` the anvils' CPU leaves the picture too.
 */
export function startCountingProxy(
  target: string,
  options: CountingProxyOptions = {},
): Promise<CountingProxy> {
  const upstream = new URL(target);
  const delayMs = options.delayMs ?? 0;
  const recorded = new Map<string, Recorded>();
  let requests = 0;

  const forward = (
    method: string | undefined,
    path: string | undefined,
    headers: Record<string, string | string[] | undefined>,
    body: Buffer,
  ) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const forwarded = httpRequest(
          { host: upstream.hostname, port: upstream.port, path, method, headers },
          (answer) => {
            const chunks: Buffer[] = [];
            answer.on("data", (chunk: Buffer) => chunks.push(chunk));
            answer.on("end", () =>
              resolve({
                status: answer.statusCode ?? 502,
                headers: answer.headers,
                body: Buffer.concat(chunks),
              }),
            );
            answer.on("error", reject);
          },
        );
        forwarded.on("error", reject);
        forwarded.end(body);
      },
    );

  const server = createServer((incoming, outgoing) => {
    requests++;
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const answer = async () => {
        if (!options.replay) {
          const result = await forward(incoming.method, incoming.url, incoming.headers, body);
          outgoing.writeHead(result.status, result.headers as Record<string, string>);
          outgoing.end(result.body);
          return;
        }
        const request = JSON.parse(body.toString("utf8")) as unknown;
        const key = keyOf(request);
        let known = recorded.get(key);
        if (known === undefined) {
          const result = await forward(incoming.method, incoming.url, incoming.headers, body);
          const parsed = JSON.parse(result.body.toString("utf8")) as
            | JsonRpcMessage
            | JsonRpcMessage[];
          const list = Array.isArray(parsed) ? parsed : [parsed];
          known = {
            requestIds: idsOf(request),
            answers: new Map(list.map((entry) => [JSON.stringify(entry.id), entry])),
          };
          recorded.set(key, known);
        }
        const { requestIds, answers } = known;
        const replayed = idsOf(request).map((id, index) => ({
          ...answers.get(JSON.stringify(requestIds[index])),
          id,
        }));
        outgoing.writeHead(200, { "content-type": "application/json" });
        outgoing.end(JSON.stringify(Array.isArray(request) ? replayed : replayed[0]));
      };
      const run = () => answer().catch(() => outgoing.destroy());
      if (delayMs > 0) setTimeout(run, delayMs);
      else run();
    });
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

/**
 * A counting proxy in front of each chain of a world (any `{ chains }` with RPC URLs), with
 * their URLs per chain as the engine takes them and their requests summed.
 * @example const delayed = await proxyEachChain(world, { delayMs: publicRpcDelayMs });
 */
export async function proxyEachChain(
  world: { chains: Record<ChainName, { rpcUrl: string }> },
  options: CountingProxyOptions = {},
) {
  const proxies = await Promise.all(
    chainNames.map((name) => startCountingProxy(world.chains[name].rpcUrl, options)),
  );
  const rpcUrls = Object.fromEntries(
    chainNames.map((name, index) => [name, [(proxies[index] as CountingProxy).url]]),
  ) as Record<ChainName, string[]>;
  return {
    rpcUrls,
    requests: () => proxies.reduce((sum, proxy) => sum + proxy.count(), 0),
    close: () => Promise.all(proxies.map((proxy) => proxy.close())),
  };
}
