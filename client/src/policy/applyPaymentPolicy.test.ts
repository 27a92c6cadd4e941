import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { exampleReport } from "../exampleReport";
import { createMemoryPinStore, type PinStore } from "../PinStore";
import type { ClientEvent } from "../PresendResult";
import { fakePaidApi } from "../testing/fakePaidApi";
import { samplePin } from "../testing/pinStoreContract";
import { applyPaymentPolicy } from "./applyPaymentPolicy";

const now = new Date("2025-06-01T12:00:00Z");
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const report = exampleReport({
  address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  checkedAt: now,
});

/** The 402 the stand-in API answers (signed like the server's), and a policy run against it. */
async function challenge(options: { challengePayTo?: `0x${string}` } = {}) {
  const api = await fakePaidApi({ payTo, report, now, ...options });
  const answer = await api.fetch("http://api.test/check", { method: "POST" });
  const paymentRequired = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
  return { api, paymentRequired };
}

function decide(
  paymentRequired: PaymentRequired,
  options: { pinStore?: PinStore; maxPrice?: bigint } = {},
) {
  const events: ClientEvent[] = [];
  const pinStore = options.pinStore ?? createMemoryPinStore();
  const config = createPresendConfig({
    url: "http://api.test",
    pinStore,
    now: () => now,
    onEvent: (event) => events.push(event),
    ...(options.maxPrice !== undefined && { maxPrice: options.maxPrice }),
  });
  return { decision: applyPaymentPolicy(config, "/check", paymentRequired), events, pinStore };
}

describe("applyPaymentPolicy: the fail-closed checks before signing", () => {
  it("accepts the attested terms and pins the key on first use", async () => {
    const { api, paymentRequired } = await challenge();
    const { decision, events, pinStore } = decide(paymentRequired);
    expect(await decision).toMatchObject({
      type: "accepted",
      requirement: { scheme: "exact", payTo, amount: String(routePrices.check) },
      pin: { fingerprint: api.fingerprint, apiUrl: "http://api.test", pinnedAt: now.toISOString() },
      pinnedNow: true,
    });
    expect((await pinStore.get("http://api.test"))?.fingerprint).toBe(api.fingerprint);
    expect(events).toEqual([
      { type: "pinned", origin: "http://api.test", kid: api.key.kid, fingerprint: api.fingerprint },
    ]);
  });

  it("takes a key pinned before as it is, pinning nothing new", async () => {
    const { api, paymentRequired } = await challenge();
    const pinStore = createMemoryPinStore();
    await decide(paymentRequired, { pinStore }).decision;
    const again = decide(paymentRequired, { pinStore });
    expect(await again.decision).toMatchObject({ type: "accepted", pinnedNow: false });
    expect(again.events).toEqual([]);
    expect((await pinStore.get("http://api.test"))?.fingerprint).toBe(api.fingerprint);
  });

  it("refuses another key than the pinned one, saying how to trust a rotated key", async () => {
    const { paymentRequired } = await challenge();
    const pinStore = createMemoryPinStore();
    await pinStore.set("http://api.test", { ...samplePin, apiUrl: "http://api.test" });
    const result = await decide(paymentRequired, { pinStore }).decision;
    expect(result).toMatchObject({ type: "refused", code: "key_changed", charged: false });
    expect(result.type === "refused" && result.message).toContain(
      "remove the pin for http://api.test",
    );
  });

  it("refuses a payee that is not the attested one, pinning nothing", async () => {
    const { paymentRequired } = await challenge({
      challengePayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    });
    const { decision, pinStore } = decide(paymentRequired);
    expect(await decision).toMatchObject({ type: "refused", code: "payto_mismatch" });
    expect(await pinStore.get("http://api.test")).toBeUndefined();
  });

  it("refuses a price one base unit above the one attested for this route", async () => {
    const { paymentRequired } = await challenge();
    // Still below /deep's attested price: only this route's price may bound it.
    const dearer = {
      ...paymentRequired,
      accepts: paymentRequired.accepts.map((accept) => ({
        ...accept,
        amount: String(routePrices.check + 1n),
      })),
    };
    expect(await decide(dearer).decision).toMatchObject({
      type: "refused",
      code: "price_above_attested",
    });
  });

  it("refuses a challenge without attestation, or without a signed offer for these terms", async () => {
    const { paymentRequired } = await challenge();
    const { "x-presend-attestation": _attestation, ...withoutAttestation } =
      paymentRequired.extensions ?? {};
    expect(
      await decide({ ...paymentRequired, extensions: withoutAttestation }).decision,
    ).toMatchObject({ type: "refused", code: "attestation_missing" });
    const { "offer-receipt": _offers, ...withoutOffer } = paymentRequired.extensions ?? {};
    expect(await decide({ ...paymentRequired, extensions: withoutOffer }).decision).toMatchObject({
      type: "refused",
      code: "offer_invalid",
    });
  });

  it("refuses above the caller's maximum price, before pinning", async () => {
    const { paymentRequired } = await challenge();
    const { decision, pinStore } = decide(paymentRequired, { maxPrice: routePrices.check - 1n });
    const result = await decision;
    expect(result).toMatchObject({ type: "refused", code: "over_max_price" });
    expect(result.type === "refused" && result.message).toBe(
      "/check costs $0.01 in USDC, above the most you allow ($0.009999).",
    );
    expect(await pinStore.get("http://api.test")).toBeUndefined();
  });

  it("accepts a price exactly at the caller's maximum", async () => {
    const { paymentRequired } = await challenge();
    expect(await decide(paymentRequired, { maxPrice: routePrices.check }).decision).toMatchObject({
      type: "accepted",
      requirement: { amount: String(routePrices.check) },
    });
  });

  it("refuses when the pinned keys cannot be read (an unreadable store must not mean 'none pinned')", async () => {
    const { paymentRequired } = await challenge();
    const broken: PinStore = {
      get: async () => {
        throw new Error("pins.json is not JSON");
      },
      set: async () => {},
    };
    expect(await decide(paymentRequired, { pinStore: broken }).decision).toMatchObject({
      type: "refused",
      code: "pin_store_unreadable",
      message: "The pinned keys cannot be read: pins.json is not JSON",
    });
  });

  it("refuses when a first-seen key cannot be pinned (a read-only or full config directory): nothing paid, nothing said pinned", async () => {
    const { paymentRequired } = await challenge();
    const unwritable: PinStore = {
      get: async () => undefined,
      set: async () => {
        throw new Error("EROFS: read-only file system, mkdir '/config/presend'");
      },
    };
    const { decision, events } = decide(paymentRequired, { pinStore: unwritable });
    expect(await decision).toMatchObject({
      type: "refused",
      code: "pin_store_unreadable",
      message:
        "The attestation key cannot be pinned (the pinned keys cannot be written: EROFS: read-only file system, mkdir '/config/presend'); nothing is paid until it can.",
    });
    expect(events.map((event) => event.type)).not.toContain("pinned");
  });
});
