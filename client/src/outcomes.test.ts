import { createPublicClient, HttpRequestError, http } from "viem";
import { base } from "viem/chains";
import { describe, expect, it } from "vitest";
import { describeCause } from "./outcomes";

describe("describeCause", () => {
  it("says what a viem RPC failure was in one line, without the endpoint, its key or the request", async () => {
    // A Base endpoint with a key in its path, on a loopback port nothing listens on.
    const rpcUrl = "http://127.0.0.1:9/v2/secret-api-key";
    const chain = createPublicClient({ chain: base, transport: http(rpcUrl, { retryCount: 0 }) });
    const thrown = await chain.getBlockNumber().catch((error: unknown) => error);
    // The raw text is what the CLI used to print: several lines, the URL and the body in them.
    expect(String((thrown as Error).message)).toContain("secret-api-key");
    const said = describeCause(thrown);
    expect(said).not.toContain("\n");
    expect(said).not.toMatch(/secret-api-key|127\.0\.0\.1|eth_blockNumber|Version|Docs/);
    expect(said).toMatch(/HTTP request failed/);
  });

  it("keeps the first line of another error, bounded, with any URL replaced", () => {
    expect(describeCause(new Error("refused\n  at https://rpc.example/key"))).toBe("refused");
    expect(describeCause(new Error("cannot reach https://rpc.example/abc now"))).toBe(
      "cannot reach <url> now",
    );
    expect(describeCause(new HttpRequestError({ url: "https://rpc.example/k" }))).toBe(
      "HTTP request failed.",
    );
    expect(describeCause("x".repeat(500)).length).toBeLessThanOrEqual(160);
    expect(describeCause(new Error(""))).toBe("no reason given");
  });
});
