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
    const result = await testConnection(
      "http://127.0.0.1:8402",
      answering(200, health({ base: true, arbitrum: false })),
    );
    expect(result).toEqual({
      ok: true,
      summary:
        "Connected to presend 1.2.3. Chains it can read now: Base. Not readable now: Arbitrum One.",
    });
  });

  it("says when nothing answers, without the browser's words", async () => {
    const failing = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    const result = await testConnection("http://127.0.0.1:9", failing);
    expect(result.ok).toBe(false);
    expect(result.summary).toContain("No answer from http://127.0.0.1:9");
    expect(result.summary).not.toContain("Failed to fetch");
  });

  it("tells another server from presend's", async () => {
    const result = await testConnection("https://example.com", answering(404, { error: "nope" }));
    expect(result).toEqual({
      ok: false,
      summary: "https://example.com answered, but not as presend's server does (HTTP 404).",
    });
    expect((await testConnection("not a url", answering(200, {}))).summary).toBe(
      "This is not a web address.",
    );
  });
});
