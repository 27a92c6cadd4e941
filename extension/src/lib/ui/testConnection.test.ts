import { describe, expect, it } from "vitest";
import { testConnection } from "./testConnection";

const health = (reachable: Record<string, boolean>) => ({
  status: Object.values(reachable).every(Boolean) ? "ok" : "degraded",
  version: "1.2.3",
  chains: Object.entries(reachable).map(([name, up], i) => ({
    name,
    chainId: i + 1,
    reachable: up,
    blockNumber: up ? "100" : null,
    latencyMs: up ? 12 : null,
  })),
});

const answering = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe("testConnection", () => {
  it("names the chains the server reads, by their names", async () => {
    const asked: string[] = [];
    const result = await testConnection("http://127.0.0.1:8402/presend/", async (url, init) => {
      asked.push(String(url));
      return answering(200, health({ base: true, arbitrum: false }))(url, init);
    });
    expect(result).toEqual({
      ok: true,
      summary:
        "Connected to presend 1.2.3. Chains it can read now: Base. Not readable now: Arbitrum One.",
    });
    expect(asked).toEqual(["http://127.0.0.1:8402/health"]);
  });

  it("says none when no chain is readable, and nothing unreadable when all are", async () => {
    const url = "http://127.0.0.1:8402";
    expect(await testConnection(url, answering(200, health({ base: false })))).toEqual({
      ok: true,
      summary: "Connected to presend 1.2.3. Chains it can read now: none. Not readable now: Base.",
    });
    expect(
      await testConnection(url, answering(200, health({ base: true, arbitrum: true }))),
    ).toEqual({
      ok: true,
      summary: "Connected to presend 1.2.3. Chains it can read now: Base, Arbitrum One.",
    });
  });

  it("says when nothing answers, without the browser's words", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    const result = await testConnection("http://127.0.0.1:9/presend", failing);
    expect(result).toEqual({
      ok: false,
      summary:
        "No answer from http://127.0.0.1:9: check the address, and that the server is running.",
    });
  });

  it("gives up on a server that takes the request but never answers", async () => {
    let signal: AbortSignal | null | undefined;
    const silent = ((_url: URL, init?: RequestInit) => {
      signal = init?.signal;
      return new Promise((_resolve, reject) => {
        // Without a deadline a real request would wait forever: fail at once instead.
        if (!signal) return reject(new Error("no deadline"));
        signal.addEventListener("abort", () => reject(signal?.reason));
      });
    }) as unknown as typeof fetch;
    expect(await testConnection("http://127.0.0.1:8402", silent, 10)).toEqual({
      ok: false,
      summary:
        "No answer from http://127.0.0.1:8402: check the address, and that the server is running.",
    });
    expect(signal?.aborted).toBe(true);
  });

  it("tells another server from presend's", async () => {
    const result = await testConnection("https://example.com", answering(404, { error: "nope" }));
    expect(result).toEqual({
      ok: false,
      summary: "https://example.com answered, but not as presend's server does (HTTP 404).",
    });
    expect(
      await testConnection("https://example.com", answering(503, health({ base: true }))),
    ).toEqual({
      ok: false,
      summary: "https://example.com answered, but not as presend's server does (HTTP 503).",
    });
    expect((await testConnection("not a url", answering(200, {}))).summary).toBe(
      "This is not a web address.",
    );
  });
});
