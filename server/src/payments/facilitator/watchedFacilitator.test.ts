import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactPayments } from "../testing/exactPayments";
import { restartableFacilitator } from "../testing/restartableFacilitator";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// A replica paying through `presend facilitator` (the fleet's shape), which is stopped and started
// again on its port: /readyz stays ready throughout (free routes serve without it) and says what
// the facilitator did last, from the paid requests and from its own probe when they are old.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const token = "watched-facilitator-token-0123456789abcdef";
const probeAfterMs = 300;

describe("the facilitator's state on /readyz and /metrics", () => {
  let facilitator: Awaited<ReturnType<typeof restartableFacilitator>>;
  let stack: PaidStack;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: devnetAccounts.activeOnBase.address,
    chain: "base",
  });
  const readyz = async () => {
    const answer = await stack.app.request("/readyz");
    return {
      status: answer.status,
      body: (await answer.json()) as { status: string; facilitator: { state: string } },
    };
  };
  const gauge = async () => {
    const text = await (await stack.app.request("/metrics")).text();
    return Object.fromEntries(
      [...text.matchAll(/^presend_facilitator_state\{state="(\w+)"\} (\d)$/gm)].map((match) => [
        match[1],
        Number(match[2]),
      ]),
    );
  };
  /** Asks /readyz until it reports `state` (each ask may start a probe). */
  const reported = async (state: string) => {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const { status, body } = await readyz();
      expect(status).toBe(200);
      if (body.facilitator.state === state || Date.now() > deadline) return body.facilitator.state;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(async () => {
    facilitator = await restartableFacilitator(shared.world, token);
    await facilitator.start();
    stack = await startPaidStack({
      world: shared.world,
      env: facilitator.env,
      facilitatorProbeMs: probeAfterMs,
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await facilitator?.stop();
  });

  it("a paid request the facilitator cannot answer makes /readyz say unreachable, still ready; one it answers, reachable", async () => {
    // Start-up read its /supported.
    expect(await readyz()).toMatchObject({
      status: 200,
      body: { status: "ready", facilitator: { state: "reachable" } },
    });
    expect(await gauge()).toEqual({ reachable: 1, unreachable: 0, unknown: 0 });

    // Signed while it runs: the route's own x402 middleware reads the facilitator on its first 402.
    const { headers, nonce } = await signed();
    await facilitator.stop();
    const refused = await post(headers);
    expect(refused.status).toBe(503);
    expect((await refused.json()).error.code).toBe("facilitator_unavailable");
    expect(await used(nonce)).toBe(false);
    const { status, body } = await readyz();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "ready", facilitator: { state: "unreachable" } });
    expect(await gauge()).toEqual({ reachable: 0, unreachable: 1, unknown: 0 });
    // Free routes serve on.
    expect((await stack.app.request("/validate?address=0x0")).status).toBeLessThan(500);

    await facilitator.start();
    const paid = await post(headers);
    expect(paid.status).toBe(200);
    expect(await used(nonce)).toBe(true);
    expect((await readyz()).body.facilitator.state).toBe("reachable");
    expect(await gauge()).toEqual({ reachable: 1, unreachable: 0, unknown: 0 });
  }, 60_000);

  it("without paid requests, /readyz probes the facilitator when the last finding is old", async () => {
    expect(await reported("reachable")).toBe("reachable");
    await facilitator.stop();
    expect(await reported("unreachable")).toBe("unreachable");
    await facilitator.start();
    expect(await reported("reachable")).toBe("reachable");
  }, 60_000);
});
