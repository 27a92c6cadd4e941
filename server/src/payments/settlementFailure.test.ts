import { createMemoryPinStore, createPresendClient, createSessionSpendCap } from "@presend/client";
import { devnetAccounts, devnetClient } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { erc20Abi } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Engine } from "../engine/createEngine";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// Verification passed, the report was made, then settlement failed (the payer emptied the wallet
// in between). The report must not be handed out, the record says failed, and no money moves.
describe("settlement that fails after the check", () => {
  const payer = privateKeyToAccount(generatePrivateKey());
  const sink = privateKeyToAccount(generatePrivateKey()).address;
  let stack: PaidStack;
  // A payment lane of the run's shared world: this file's facilitator and payTo are its own.
  const shared = sharedPaymentWorld();
  // The payer whose whole USDC balance leaves while the engine runs (after verification).
  let drainee: PrivateKeyAccount | null = null;

  beforeAll(async () => {
    stack = await startPaidStack({
      world: shared.world,
      wrapEngine: (engine: Engine): Engine => ({
        ...engine,
        async check(input) {
          const result = await engine.check(input);
          const leaving = drainee;
          drainee = null;
          if (leaving) {
            // A real transaction by the payer: its whole USDC balance leaves before settlement.
            const base = devnetClient("base", stack.world.chains.base.rpcUrl);
            await base.setBalance({ address: leaving.address, value: 10n ** 18n });
            const balance = await stack.usdcBalance(leaving.address);
            await base.confirm(
              base.writeContract({
                account: leaving,
                address: chains.base.usdc.address,
                abi: erc20Abi,
                functionName: "transfer",
                args: [sink, balance],
              }),
            );
          }
          return result;
        },
      }),
    });
    await shared.fund(payer.address, 1_000_000n);
  });
  afterAll(() => stack?.stop());

  it("answers 402 with the settlement error, no report, the record failed, nothing paid", async () => {
    const post = (headers: Record<string, string> = {}) =>
      stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
      });
    const required = decodePaymentRequiredHeader(
      (await post()).headers.get("payment-required") ?? "",
    );
    const extensionKeys = Object.keys(required.extensions ?? {}).sort();
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const payload = await client.createPaymentPayload(required);
    const payToBefore = await stack.usdcBalance(stack.world.accounts.payTo.address);
    const settledBefore = await stack.records.count("settled");

    drainee = payer;
    const response = await post({ "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) });

    expect(response.status).toBe(402);
    // The official middleware reports the failed settlement itself; it must not claim success.
    const settlement = response.headers.get("payment-response");
    if (settlement !== null) {
      expect(decodePaymentResponseHeader(settlement).success).toBe(false);
      // leakedInternals: the facilitator's raw error (RPC URL, signed transaction) stays inside.
      expect(decodePaymentResponseHeader(settlement)).not.toHaveProperty("errorMessage");
    }
    const everything = `${[...response.headers.values()].join(" ")} ${await response.clone().text()}`;
    expect(everything).not.toContain(stack.world.chains.base.rpcUrl.replace("http://", ""));
    expect(everything).not.toMatch(/0x02f8[0-9a-f]{20}/i);
    const body = await response.json();
    // The new challenge is the route's own: every extension of the first 402, each with info
    // and schema, so a client can pay again with a fresh authorization.
    const again = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
    expect(Object.keys(again.extensions ?? {}).sort()).toEqual(extensionKeys);
    expect(extensionKeys).toEqual(
      expect.arrayContaining([
        "bazaar",
        "offer-receipt",
        "payment-identifier",
        "x-presend-attestation",
      ]),
    );
    for (const entry of Object.values(again.extensions ?? {})) {
      expect(entry).toEqual(
        expect.objectContaining({ info: expect.anything(), schema: expect.anything() }),
      );
    }
    expect(again.accepts).toEqual(required.accepts);
    expect(body.extensions).toEqual(again.extensions);
    expect(body).not.toHaveProperty("verdict");
    expect(body).not.toHaveProperty("report");
    expect(typeof body.error).toBe("string");
    expect(await stack.records.count("settled")).toBe(settledBefore);
    const { from, nonce } = (payload.payload as { authorization: { from: string; nonce: string } })
      .authorization;
    expect(await stack.records.byAuthorization({ payer: from, nonce })).toMatchObject({
      status: "failed",
    });
    expect(await stack.usdcBalance(stack.world.accounts.payTo.address)).toBe(payToBefore);
    expect(await stack.usdcBalance(sink)).toBe(1_000_000n);
  });

  it("@presend/client reads that 402 as not charged (settlement_failed) and gives its spend cap back", async () => {
    const clientPayer = privateKeyToAccount(generatePrivateKey());
    await shared.fund(clientPayer.address, 1_000_000n);
    const spendCap = createSessionSpendCap(1_000_000n);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: clientPayer,
      pinStore: createMemoryPinStore(),
      spendCap,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    const payToBefore = await stack.usdcBalance(stack.world.accounts.payTo.address);

    drainee = clientPayer;
    const result = await client.check({ address: devnetAccounts.activeOnBase.address });

    expect(result).toMatchObject({ type: "not_charged", code: "settlement_failed" });
    expect(spendCap.spent()).toBe(0n);
    expect(await stack.usdcBalance(stack.world.accounts.payTo.address)).toBe(payToBefore);
    expect(await stack.usdcBalance(clientPayer.address)).toBe(0n);
  });
});
