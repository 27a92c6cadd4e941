import { devnetPrivateKey } from "@presend/devnet";
import { describe, expect, it } from "vitest";
import { createLocalFacilitator } from "../facilitator/createLocalFacilitator";
import { facilitatorSettlesChannels } from "./facilitatorSettlesChannels";

// The in-process facilitator with and without its batch-settlement scheme: its supported kinds
// are answered without touching the chain, so the RPC URL is never dialled.
const network = "eip155:8453";
const facilitator = (batchSettlement: boolean) =>
  createLocalFacilitator({
    network,
    rpcUrls: ["http://127.0.0.1:9"],
    privateKey: devnetPrivateKey("facilitatorSettlesChannels: facilitator"),
    batchSettlement,
  });

describe("facilitatorSettlesChannels", () => {
  it("is true for a facilitator whose supported kinds name batch-settlement on the network", async () => {
    expect(
      await facilitatorSettlesChannels(facilitator(true), network, {
        required: true,
        warn: () => {},
      }),
    ).toBe(true);
  });

  it("by default leaves exact alone when the facilitator cannot settle channels, saying so", async () => {
    const warnings: string[] = [];
    const settles = await facilitatorSettlesChannels(facilitator(false), network, {
      required: false,
      warn: (message) => warnings.push(message),
    });
    expect(settles).toBe(false);
    expect(warnings).toEqual([expect.stringContaining("only exact is offered")]);
  });

  it("stops start-up with CHANNELS=on when the facilitator cannot settle channels", async () => {
    await expect(
      facilitatorSettlesChannels(facilitator(false), network, { required: true, warn: () => {} }),
    ).rejects.toThrow(/CHANNELS=on.*CHANNELS=off/);
    // Another network than the one the facilitator settles on is no better.
    await expect(
      facilitatorSettlesChannels(facilitator(true), "eip155:84532", {
        required: true,
        warn: () => {},
      }),
    ).rejects.toThrow("eip155:84532");
  });

  it("names FACILITATOR_URL when the supported kinds cannot be read", async () => {
    const unreachable = {
      getSupported: () => Promise.reject(new Error("connect ECONNREFUSED")),
    };
    await expect(
      facilitatorSettlesChannels(unreachable, network, { required: false, warn: () => {} }),
    ).rejects.toThrow(/^FACILITATOR_URL: .*ECONNREFUSED/);
  });
});
