import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import type { PaymentRequirements } from "@x402/core/types";
import { resetAssetContractCache, toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../../http/freePort";
import { type FaultyRpc, startFaultyRpc } from "../testing/startFaultyRpc";
import { createLocalFacilitator } from "./createLocalFacilitator";
import { broadcastKeptMs } from "./settlementBroadcasts";

const { world } = sharedPaymentWorld();
const price = 10_000n;
const requirements = (amount: bigint): PaymentRequirements => ({
  scheme: "exact",
  network: chains.base.caip2,
  asset: chains.base.usdc.address,
  amount: String(amount),
  payTo: world.accounts.payTo.address,
  maxTimeoutSeconds: 60,
  extra: { ...nativeUsdcDomain },
});

/** The lane's payer's exact payment of `amount`, signed by the official client. */
function payment(amount: bigint, privateKey = world.accounts.payer.privateKey) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(privateKey)) });
  return client.createPaymentPayload({
    x402Version: 2,
    resource: { url: "http://127.0.0.1/check", description: "", mimeType: "application/json" },
    accepts: [requirements(amount)],
  });
}

/** Rejections no one handled while `run` ran (Node ends a process on one). */
async function unhandledDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T; unhandled: unknown[] }> {
  const unhandled: unknown[] = [];
  const collect = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", collect);
  try {
    const result = await run();
    // A read the scheme left behind fails within the RPC's answer time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { result, unhandled };
  } finally {
    process.off("unhandledRejection", collect);
  }
}

describe("createLocalFacilitator", () => {
  it("never names the RPC URL's key in what it answers or reports, when the provider is down", async () => {
    // Nothing listens there: every read and the settlement fail the way a provider that is down
    // fails, and viem puts its URL in each of those errors.
    const keyed = `http://127.0.0.1:${await freePort()}/v2/SECRET-KEY?apikey=SECRET-KEY`;
    const reported: unknown[] = [];
    const facilitator = createLocalFacilitator({
      network: chains.base.caip2,
      rpcUrls: [keyed],
      privateKey: generatePrivateKey(),
      rpcTimeoutMs: 500,
      onError: (error) => reported.push(error),
    });
    const paid = await payment(price, generatePrivateKey());
    const outcomes = await Promise.all([
      facilitator.verify(paid, requirements(price)).catch((error: unknown) => error),
      facilitator.settle(paid, requirements(price)).catch((error: unknown) => error),
    ]);
    const shown = (value: unknown) =>
      value instanceof Error
        ? `${String(value)} ${value.stack} ${JSON.stringify(value)}`
        : JSON.stringify(value);
    const text = [...outcomes, ...reported].map(shown).join("\n");
    // The failures are there to be read (not swallowed), with the provider's host.
    expect(text).toContain("127.0.0.1");
    expect(text).not.toContain("SECRET-KEY");
  });

  it("holds each settlement's broadcast for a window after it, not for the process's life", async () => {
    let clock = Date.now();
    const facilitator = createLocalFacilitator({
      network: chains.base.caip2,
      rpcUrls: [world.chains.base.rpcUrl],
      privateKey: world.accounts.facilitator.privateKey,
      now: () => clock,
    });
    const settleOne = async () => {
      const paid = await payment(price);
      const answer = await facilitator.settle(paid, requirements(price));
      expect(answer).toMatchObject({ success: true });
      const { from, nonce } = (paid.payload as { authorization: { from: string; nonce: string } })
        .authorization;
      return { from, nonce, transaction: answer.transaction };
    };
    const settled = [];
    for (let index = 0; index < 4; index++) settled.push(await settleOne());
    expect(facilitator.heldBroadcasts()).toBe(4);
    for (const { from, nonce, transaction } of settled) {
      expect(facilitator.broadcastFor(from, nonce)).toBe(transaction);
    }
    // Weeks of settlements, one window at a time: only the last window's stay held, and one
    // forgotten is not known here any more (never "nothing was sent").
    clock += broadcastKeptMs + 1;
    const latest = await settleOne();
    expect(facilitator.heldBroadcasts()).toBe(1);
    expect(facilitator.broadcastFor(latest.from, latest.nonce)).toBe(latest.transaction);
    for (const { from, nonce } of settled) {
      expect(facilitator.broadcastFor(from, nonce)).toBeUndefined();
    }
  });

  describe("when the Base RPC fails reads of contract code (a public endpoint's rate limit)", () => {
    let rpc: FaultyRpc;
    let facilitator: ReturnType<typeof createLocalFacilitator>;
    beforeAll(async () => {
      rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    });
    afterAll(() => rpc?.close());
    beforeEach(() => {
      rpc.failingMethod = null;
      // As 15 minutes after the scheme's last look at the asset: its own cache no longer answers.
      resetAssetContractCache();
      facilitator = createLocalFacilitator({
        network: chains.base.caip2,
        rpcUrls: [rpc.url],
        privateKey: generatePrivateKey(),
      });
    });
    afterEach(() => resetAssetContractCache());

    it("a payment refused early leaves no failed read behind, before the asset was ever read", async () => {
      const wrongAmount = await payment(price);
      rpc.failingMethod = "eth_getCode";
      const { result, unhandled } = await unhandledDuring(() =>
        facilitator.verify(wrongAmount, requirements(2n * price)).then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        ),
      );
      expect(unhandled).toEqual([]);
      // Nothing could be verified: an error the caller handles (the resource server's guard
      // answers it as the payment network being unavailable), not a verdict on the payment.
      expect(result).toEqual({ error: expect.any(Error) });
    });

    it("once the asset was read, its code answers for the RPC: a refused read is never a verdict", async () => {
      const right = await payment(price);
      expect((await facilitator.verify(right, requirements(price))).isValid).toBe(true);
      resetAssetContractCache();
      rpc.failingMethod = "eth_getCode";
      const callsBefore = rpc.calls.length;
      const settled = <T>(answer: Promise<T>) =>
        answer.then(
          (value) => ({ value }),
          (error: unknown) => ({ error }),
        );
      const { result, unhandled } = await unhandledDuring(async () => ({
        wrongAmount: await settled(
          facilitator.verify(await payment(price), requirements(2n * price)),
        ),
        correct: await settled(facilitator.verify(await payment(price), requirements(price))),
      }));
      expect(unhandled).toEqual([]);
      // The payer's code could not be read, so the scheme could not check the signature: an error
      // to try again on, never "invalid signature" for a correct payment.
      expect(result.correct).toEqual({ error: expect.any(Error) });
      expect(result.wrongAmount).toEqual({ error: expect.any(Error) });
      expect(rpc.calls.slice(callsBefore)).toContain("eth_getCode");
      // The RPC answers again: the same payments get their verdicts.
      rpc.failingMethod = null;
      expect(await facilitator.verify(await payment(price), requirements(price))).toMatchObject({
        isValid: true,
      });
      const refused = await facilitator.verify(await payment(price), requirements(2n * price));
      expect(refused.isValid).toBe(false);
      expect(refused.invalidReason).toMatch(/value|amount/i);
    });
  });
});
