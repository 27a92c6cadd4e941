import { type AnvilInstance, devnetClient, startAnvil } from "@presend/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBoundedRpcClient } from "./createBoundedRpcClient";

describe("createBoundedRpcClient (a real anvil chain)", () => {
  let anvil: AnvilInstance;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
  });
  afterAll(() => anvil?.stop());

  it("reads the head afresh: a block mined a moment after one read is the next read's head", async () => {
    const client = createBoundedRpcClient([anvil.rpcUrl]);
    const before = await client.getBlockNumber();
    await devnetClient("base", anvil.rpcUrl).mine({ blocks: 5 });
    // At once, well within the 4 s viem keeps a head by default.
    expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(before + 5n);
  });
});
