import { sharedWorld } from "@presend/devnet/testing";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "../../http/listen";
import { startPaidStack } from "../testing/startPaidStack";
import { requireExactSettlement } from "./requireExactSettlement";

const world = sharedWorld();

describe("requireExactSettlement", () => {
  const supporting = (...kinds: { scheme: string; network: `${string}:${string}` }[]) => ({
    getSupported: async () => ({
      kinds: kinds.map((kind) => ({ x402Version: 2, ...kind })),
      extensions: [],
      signers: {},
    }),
  });

  it("passes a facilitator that settles exact on the payment network", async () => {
    await expect(
      requireExactSettlement(
        supporting({ scheme: "exact", network: "eip155:8453" }),
        "eip155:8453",
      ),
    ).resolves.toBeUndefined();
  });

  it("names the network it wants and what the facilitator settles instead", async () => {
    await expect(
      requireExactSettlement(
        supporting(
          { scheme: "exact", network: "eip155:84532" },
          { scheme: "upto", network: "eip155:84532" },
        ),
        "eip155:8453",
      ),
    ).rejects.toThrow(
      "the facilitator does not settle exact payments on eip155:8453 (Base), where presend takes them (PRESEND_NETWORK); it lists exact on eip155:84532 (Base Sepolia), upto on eip155:84532 (Base Sepolia). Point it at a facilitator of that network",
    );
  });

  it("a server restarted with FACILITATOR_URL of another network's facilitator does not start", async () => {
    // A facilitator that answers, for Base Sepolia only: before, the server started, /readyz
    // said ready, and every payer was told the facilitator could not be reached.
    const app = new Hono();
    app.get("/supported", (c) =>
      c.json({
        kinds: [{ x402Version: 2, scheme: "exact", network: "eip155:84532" }],
        extensions: [],
        signers: {},
      }),
    );
    const facilitator = await listen(app, { port: 0 });
    try {
      const started = startPaidStack({ world, env: { FACILITATOR_URL: facilitator.url } });
      await expect(started).rejects.toThrow(
        new RegExp(
          `^FACILITATOR_URL \\(${facilitator.url.replace(/[.]/g, "\\.")}\\): the facilitator does not settle exact payments on eip155:8453 \\(Base\\)`,
        ),
      );
    } finally {
      await facilitator.close();
    }
  });
});
