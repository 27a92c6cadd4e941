import { type AnvilInstance, startAnvil } from "@presend/devnet";
import { createPublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./freePort";
import { keyHiddenHttpTransport } from "./keyHiddenHttpTransport";

const clientOf = (rpcUrl: string) =>
  createPublicClient({
    transport: keyHiddenHttpTransport(rpcUrl, { timeoutMs: 3_000, retryCount: 0 }),
  });

describe("keyHiddenHttpTransport (a real anvil chain)", () => {
  let anvil: AnvilInstance;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
  });
  afterAll(() => anvil?.stop());

  it("reads through a URL whose key is in the query, as providers give them", async () => {
    const base = new URL(anvil.rpcUrl);
    // anvil ignores the query, as a provider takes its key there (or in the path).
    const keyed = `${base.origin}/?apikey=SECRET-KEY`;
    expect(await clientOf(keyed).getChainId()).toBe(8453);
  });

  it("sends a URL's user info as basic auth, as viem does, and keeps it out of its errors", async () => {
    const base = new URL(anvil.rpcUrl);
    base.username = "user";
    base.password = "SECRET-KEY";
    expect(await clientOf(base.toString()).getChainId()).toBe(8453);
  });

  it("never names a provider's key in an error: a mainnet server logs these", async () => {
    // Nothing listens there: the read fails the way a provider that is down fails.
    const keyed = `http://127.0.0.1:${await freePort()}/v2/SECRET-KEY?apikey=SECRET-KEY`;
    const error = await clientOf(keyed)
      .getBlockNumber()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(text).toContain("127.0.0.1");
    expect(text).not.toContain("SECRET-KEY");
  });
});
