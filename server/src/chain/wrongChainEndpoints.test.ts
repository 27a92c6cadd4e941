import { sharedWorld } from "@presend/devnet/testing";
import { describe, expect, it } from "vitest";
import { startPaidStack } from "../payments/testing/startPaidStack";
import { wrongChainEndpoints } from "./wrongChainEndpoints";

const world = sharedWorld();

describe("wrongChainEndpoints", () => {
  it("names an endpoint that answers another chain's id by setting and place, never its URL", async () => {
    const problems = await wrongChainEndpoints(
      [
        {
          setting: "RPC_URLS_ETHEREUM",
          chain: "ethereum",
          urls: [world.chains.ethereum.rpcUrl, world.chains.arbitrum.rpcUrl],
        },
        { setting: "RPC_URLS_BASE", chain: "base", urls: [world.chains.base.rpcUrl] },
      ],
      { timeoutMs: 2_000 },
    );
    expect(problems).toEqual([
      "RPC_URLS_ETHEREUM: endpoint 2 answers chain id 42161, not Ethereum's 1 (a URL of another chain?)",
    ]);
    expect(problems.join()).not.toContain(world.chains.arbitrum.rpcUrl);
  });

  it("leaves an endpoint that does not answer to the readers", async () => {
    expect(
      await wrongChainEndpoints(
        [{ setting: "RPC_URLS_BASE", chain: "base", urls: ["http://127.0.0.1:9"] }],
        { timeoutMs: 500 },
      ),
    ).toEqual([]);
  });

  it("a server restarted with an RPC URL of another chain does not start", async () => {
    // Before, it started and answered paid checks on Ethereum with Arbitrum's facts.
    await expect(
      startPaidStack({ world, rpcUrls: { ethereum: [world.chains.arbitrum.rpcUrl] } }),
    ).rejects.toThrow(
      "RPC_URLS_ETHEREUM: endpoint 1 answers chain id 42161, not Ethereum's 1 (a URL of another chain?)",
    );
  });
});
