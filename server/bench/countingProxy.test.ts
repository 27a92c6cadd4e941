import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxyEachChain, startCountingProxy } from "./countingProxy";

// A stand-in JSON-RPC endpoint that answers every entry with how many requests it has served,
// so an answer from the proxy's memory is told apart from a forwarded one.
describe("startCountingProxy", () => {
  let served = 0;
  const upstream = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      served++;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id: number }[];
      response.writeHead(200, { "content-type": "application/json" });
      // Reversed: a batch's answers may come in any order; the proxy matches them by id.
      response.end(
        JSON.stringify(body.map(({ id }) => ({ jsonrpc: "2.0", id, result: served })).reverse()),
      );
    });
  });
  let url = "";
  beforeAll(
    () =>
      new Promise<void>((resolve) =>
        upstream.listen(0, "127.0.0.1", () => {
          url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
          resolve();
        }),
      ),
  );
  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  const post = async (target: string, body: unknown) =>
    (await (
      await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      })
    ).json()) as { id: number; result: number }[];
  const batch = (ids: number[], method = "eth_chainId") =>
    ids.map((id) => ({ jsonrpc: "2.0", id, method, params: [] }));

  it("forwards and counts every request", async () => {
    const proxy = await startCountingProxy(url);
    const before = served;
    await post(proxy.url, batch([1, 2]));
    await post(proxy.url, batch([1, 2]));
    expect(served - before).toBe(2);
    expect(proxy.count()).toBe(2);
    await proxy.close();
  });

  it("replays a question asked before under the new request's ids, without asking upstream", async () => {
    const proxy = await startCountingProxy(url, { replay: true });
    const before = served;
    const first = await post(proxy.url, batch([1, 2]));
    const again = await post(proxy.url, batch([7, 8]));
    expect(served - before).toBe(1);
    expect(proxy.count()).toBe(2);
    expect(again.map(({ id }) => id)).toEqual([7, 8]);
    expect(again.map(({ result }) => result)).toEqual(
      [1, 2].map((id) => first.find((entry) => entry.id === id)?.result),
    );
    // Another question is forwarded.
    await post(proxy.url, batch([1, 2], "eth_blockNumber"));
    expect(served - before).toBe(2);
    await proxy.close();
  });

  it("holds each round trip delayMs", async () => {
    const proxy = await startCountingProxy(url, { delayMs: 40 });
    const start = performance.now();
    await post(proxy.url, batch([1]));
    expect(performance.now() - start).toBeGreaterThanOrEqual(39);
    await proxy.close();
  });

  it("fronts each chain of a world with a proxy of its own and sums their requests", async () => {
    const chains = Object.fromEntries(chainNames.map((name) => [name, { rpcUrl: url }]));
    const proxies = await proxyEachChain(
      { chains: chains as Record<ChainName, { rpcUrl: string }> },
      { delayMs: 20 },
    );
    const urls = chainNames.map((name) => proxies.rpcUrls[name][0]);
    expect(new Set(urls).size).toBe(chainNames.length);
    const before = served;
    const start = performance.now();
    await Promise.all(urls.map((proxyUrl) => post(proxyUrl as string, batch([1]))));
    expect(performance.now() - start).toBeGreaterThanOrEqual(19);
    expect(served - before).toBe(chainNames.length);
    expect(proxies.requests()).toBe(chainNames.length);
    await proxies.close();
  });
});
