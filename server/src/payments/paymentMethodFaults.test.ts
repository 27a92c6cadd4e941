import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactPayments } from "./testing/exactPayments";
import { type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// Public endpoints rate-limit or fail one method at a time. Every JSON-RPC method a paid check
// sends to the payment chain (learned from a real one, not listed here) fails alone in turn, and
// each payment is reconciled against the chain: what the payer was told against what was charged.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const price = 10_000n;

describe("one JSON-RPC method of the payment chain failing, each in turn", () => {
  let stack: PaidStack;
  let rpc: FaultyRpc;
  const payments = exactPayments(() => stack, payer, { address: target });

  beforeAll(async () => {
    rpc = await startFaultyRpc(shared.world.chains.base.rpcUrl);
    stack = await startPaidStack({
      world: shared.world,
      paymentRpcUrl: rpc.url,
      confirmationTimeoutMs: 3_000,
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await rpc?.close();
  });

  it("a charged payer gets the report or where to fetch it; anyone else is told nothing was charged, never that the payment was bad", async () => {
    const unhandled: unknown[] = [];
    const collect = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", collect);
    try {
      const learned = await payments.signed();
      const callsBefore = rpc.calls.length;
      expect((await payments.post(learned.headers)).status).toBe(200);
      const methods = [...new Set(rpc.calls.slice(callsBefore))];
      // The verification's reads and the settlement's broadcast are among them.
      expect(methods).toEqual(expect.arrayContaining(["eth_call", "eth_sendRawTransaction"]));

      for (const method of methods) {
        const { headers, nonce } = await payments.signed();
        const payerBefore = await stack.usdcBalance(payer.address);
        rpc.failingMethod = method;
        const answer = await payments.post(headers);
        rpc.failingMethod = null;
        const body = (await answer.json()) as { error?: string | { code: string } };
        const charged = payerBefore - (await stack.usdcBalance(payer.address));
        const key = { payer: payer.address, nonce };
        const seen = `${method} failing: ${answer.status} ${JSON.stringify(body).slice(0, 120)}`;
        if (charged === price) {
          expect(await payments.used(nonce), seen).toBe(true);
          if (answer.status === 502) {
            expect(body, seen).toMatchObject({ error: { code: "settlement_unknown" } });
            await stack.reconcile();
          } else {
            expect(answer.status, seen).toBe(200);
          }
          const record = await stack.records.byAuthorization(key);
          expect(record, seen).toMatchObject({ status: "settled" });
          const signature = await payer.signMessage({ message: receiptMessage(nonce) });
          const receipt = await stack.app.request(
            `/receipts/${payer.address.toLowerCase()}/${nonce}?signature=${signature}`,
          );
          expect(receipt.status, seen).toBe(200);
        } else {
          expect(charged, seen).toBe(0n);
          expect(await payments.used(nonce), seen).toBe(false);
          // Nothing charged: a refusal of this attempt (402) or "try again" (503), never a 500.
          expect([402, 503], seen).toContain(answer.status);
          // A correct payment is never called bad: no signature, balance or amount verdict.
          const reason = typeof body.error === "string" ? body.error : body.error?.code;
          expect(reason, seen).not.toMatch(/signature|insufficient|value|amount/i);
          const record = await stack.records.byAuthorization(key);
          expect(record?.status ?? "none", seen).toMatch(/^(none|failed)$/);
        }
      }
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", collect);
      rpc.failingMethod = null;
    }
  });
});
