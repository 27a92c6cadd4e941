import { afterAll, describe, expect, it } from "vitest";
import { type AnvilInstance, startAnvil } from "./startAnvil";

describe("startAnvil", () => {
  let anvil: AnvilInstance | undefined;
  afterAll(() => anvil?.stop());

  it("starts a chain with the requested id on a free loopback port and stops it", async () => {
    anvil = await startAnvil({ chainId: 42161 });
    const response = await fetch(anvil.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    });
    expect(await response.json()).toMatchObject({ result: "0xa4b1" });
    await anvil.stop();
    expect(anvil.process.exitCode !== null || anvil.process.signalCode !== null).toBe(true);
  });
});
