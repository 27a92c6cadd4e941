import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../replay/startReplayServer";
import { httpDiscoverySource } from "./discoverySource";

const recorded = fileURLToPath(new URL("../../fixtures/http", import.meta.url));
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer({ dir: recorded });
});
afterAll(() => replay?.stop());

describe("httpDiscoverySource (recorded services)", () => {
  it("reads x402 v2 items from /.well-known/x402 and the v2 PAYMENT-REQUIRED header", async () => {
    const found = await httpDiscoverySource({ fetch: replay.fetch }).discover(
      "https://news.example",
    );
    expect(found.reachable).toBe(true);
    expect(found.docShape).toBe("x402-v2-items");
    expect(new Set(found.declared.map((entry) => entry.via))).toEqual(
      new Set(["well-known", "challenge"]),
    );
    expect(found.declared.map((entry) => entry.network)).toContain(
      "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    );
  });

  it("reads OpenAPI x-payment-info and challenges the paid route with its own method", async () => {
    const found = await httpDiscoverySource({ fetch: replay.fetch }).discover(
      "https://render.example/",
    );
    expect(found.docShape).toBe("openapi-payment-info");
    expect(found.declared.filter((entry) => entry.via === "challenge")).toHaveLength(2);
    expect(found.declared.map((entry) => entry.network)).toContain("eip155:42161");
  });

  it("reads a v1 resource list and the v1 challenge body (network names, not CAIP-2)", async () => {
    const found = await httpDiscoverySource({ fetch: replay.fetch }).discover("https://fx.example");
    expect(found.docShape).toBe("x402-v1-resources");
    expect(found.declared.map((entry) => [entry.via, entry.network])).toEqual([
      ["challenge", "base"],
      ["challenge", "arbitrum"],
    ]);
  });

  it("falls back to the challenge of the root when a service publishes no document", async () => {
    const found = await httpDiscoverySource({ fetch: replay.fetch }).discover(
      "https://kyc.example",
    );
    expect(found).toMatchObject({ reachable: true, docShape: "challenge-only" });
    expect(found.declared).toHaveLength(1);
  });

  it("reports a host that drops the connection as unreachable, not as an error", async () => {
    const found = await httpDiscoverySource({ fetch: replay.fetch }).discover(
      "https://echo.example",
    );
    expect(found).toEqual({ reachable: false, docShape: "none", declared: [] });
  });
});
