import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../facilitatorService/startFacilitatorService";
import { freePort } from "../http/freePort";
import { exactPayments } from "./testing/exactPayments";
import { type FaultMode, type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// An operator lists two Base providers (RPC_URLS_BASE) and the first one fails: the payments
// (the bookkeeping reads, the in-process facilitator, `presend facilitator`) go on through the
// second, as the reports do. The first is a proxy in front of the real chain that misbehaves one
// way per case; each paid check is reconciled against the chain: what the payer got, what moved,
// what was recorded.
const { world, lane } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const price = 10_000n;
const internals = /127\.0\.0\.1:\d+|https?:\/\/|0x02f8|stack|at [\w.]+ \(/i;

/** A paid `exact` /check against `stack()`: the report, charged once, recorded settled. */
function expectPaid(stack: () => PaidStack) {
  const { post, signed, used } = exactPayments(stack, payer, { address: target });
  return async () => {
    const { headers, nonce } = await signed();
    const payTo = world.accounts.payTo.address;
    const before = [await stack().usdcBalance(payer.address), await stack().usdcBalance(payTo)];
    const response = await post(headers);
    const text = await response.clone().text();
    expect(response.status, text.slice(0, 200)).toBe(200);
    expect(text.replaceAll(stack().publicUrl, "")).not.toMatch(internals);
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "");
    expect(settlement).toMatchObject({ success: true });
    expect(settlement).not.toHaveProperty("errorMessage");
    expect(await used(nonce)).toBe(true);
    expect([await stack().usdcBalance(payer.address), await stack().usdcBalance(payTo)]).toEqual([
      (before[0] as bigint) - price,
      (before[1] as bigint) + price,
    ]);
    const record = await stack().records.byAuthorization({ payer: payer.address, nonce });
    expect(record).toMatchObject({ status: "settled", tx: settlement.transaction.toLowerCase() });
    expect(record?.report).toEqual(await response.json());
  };
}

describe("RPC_URLS_BASE with a failing first provider: the in-process facilitator", () => {
  let first: FaultyRpc;
  let stack: PaidStack;
  const paid = expectPaid(() => stack);

  // A stack of its own for each case: the payment side remembers which provider answered last,
  // so a case after another would start at the second provider and never meet the first's fault.
  beforeEach(async () => {
    first = await startFaultyRpc(world.chains.base.rpcUrl);
    stack = await startPaidStack({
      world,
      rpcUrls: { base: [first.url, world.chains.base.rpcUrl] },
      confirmationTimeoutMs: 3_000,
    });
  });
  afterEach(async () => {
    await stack?.stop();
    await first?.close();
  });

  it.each<FaultMode>(["garbage", "http429"])(
    "first provider in mode %s: paid through the second, the report, charged once, recorded settled",
    async (mode) => {
      first.mode = mode;
      try {
        const calls = first.calls.length;
        await paid();
        // The first provider was asked (and failed), not skipped.
        expect(first.calls.length).toBeGreaterThan(calls);
      } finally {
        first.mode = "pass";
      }
    },
  );

  it("first provider hangs: its timeout is waited out once, then the calls start at the second; each check paid, charged once, recorded settled", async () => {
    first.mode = "hang";
    try {
      await paid();
      // The payment side learnt which provider answers: the next paid check waits on no
      // timeout of the hanging one (3 s for a bookkeeping read, 5 s for the facilitator's).
      const started = Date.now();
      await paid();
      expect(Date.now() - started).toBeLessThan(3_000);
    } finally {
      first.mode = "pass";
    }
  }, 60_000);

  it("first provider takes the broadcast and loses its answer: the second gets the same signed transaction, charged once, recorded settled", async () => {
    first.mode = "dropSendRaw";
    try {
      await paid();
      expect(first.calls).toContain("eth_sendRawTransaction");
    } finally {
      first.mode = "pass";
    }
  });
});

describe("RPC_URLS_BASE with a first provider that is down: presend facilitator", () => {
  let facilitator: FacilitatorService;
  let stack: PaidStack;
  const token = "payment-rpc-fallback-facilitator-token-0123";
  const paid = expectPaid(() => stack);

  beforeAll(async () => {
    facilitator = await startFacilitatorService({
      PORT: "0",
      RPC_URLS_BASE: `http://127.0.0.1:${await freePort()},${world.chains.base.rpcUrl}`,
      FACILITATOR_PRIVATE_KEY: lane.facilitator.privateKey,
      FACILITATOR_AUTH_TOKEN: token,
      LOG_LEVEL: "silent",
      FACILITATOR_JOURNAL_FILE: join(mkdtempSync(join(tmpdir(), "presend-journal-")), "j.json"),
    });
    stack = await startPaidStack({
      world,
      env: { FACILITATOR_URL: facilitator.url, FACILITATOR_AUTH_TOKEN: token },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await facilitator?.stop();
  });

  it("verifies and settles through the second: the report, charged once, recorded settled", () =>
    paid());
});
