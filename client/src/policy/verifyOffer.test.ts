import { decodePaymentRequiredHeader } from "@x402/core/http";
import {
  extractOfferPayload,
  extractOffersFromPaymentRequired,
} from "@x402/extensions/offer-receipt";
import { describe, expect, it } from "vitest";
import { exampleReport } from "../exampleReport";
import { fakePaidApi } from "../testing/fakePaidApi";
import { verifyOffer } from "./verifyOffer";

const now = new Date("2025-06-01T12:00:00Z");
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async function signedChallenge() {
  const report = exampleReport({ address: payTo, checkedAt: now });
  const api = await fakePaidApi({ payTo, report, now });
  const answer = await api.fetch("http://api.test/check", { method: "POST" });
  const paymentRequired = decodePaymentRequiredHeader(answer.headers.get("payment-required") ?? "");
  const requirement = paymentRequired.accepts[0];
  if (requirement === undefined) throw new Error("the stand-in offers nothing");
  return { api, paymentRequired, requirement };
}

describe("verifyOffer", () => {
  it("takes an offer signed with the attestation key for exactly these terms", async () => {
    const { api, paymentRequired, requirement } = await signedChallenge();
    expect(await verifyOffer(paymentRequired, requirement, api.key, now)).toBeNull();
  });

  it.each([
    ["another amount", { amount: "10001" }],
    ["another payee", { payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }],
    ["another asset", { asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e" }],
    ["another scheme", { scheme: "batch-settlement" }],
    ["another network", { network: "eip155:84532" as const }],
  ])("refuses the offer for %s", async (_name, change) => {
    const { api, paymentRequired, requirement } = await signedChallenge();
    expect(await verifyOffer(paymentRequired, { ...requirement, ...change }, api.key, now)).toBe(
      "No signed offer in the challenge verifies with the attestation key for these payment terms.",
    );
  });

  it("takes the payee and asset in any letter case", async () => {
    const { api, paymentRequired, requirement } = await signedChallenge();
    const lower = {
      ...requirement,
      payTo: requirement.payTo.toLowerCase(),
      asset: requirement.asset.toLowerCase(),
    };
    expect(lower).not.toEqual(requirement);
    expect(await verifyOffer(paymentRequired, lower, api.key, now)).toBeNull();
  });

  it("takes an offer up to a minute past its validUntil, and refuses it a millisecond later", async () => {
    const { api, paymentRequired, requirement } = await signedChallenge();
    const [offer] = extractOffersFromPaymentRequired(paymentRequired);
    if (offer === undefined) throw new Error("the stand-in signs no offer");
    const expiry = extractOfferPayload(offer).validUntil * 1000;
    const at = (ms: number) => verifyOffer(paymentRequired, requirement, api.key, new Date(ms));
    expect(await at(expiry + 60_000)).toBeNull();
    expect(await at(expiry + 60_001)).toBe(
      "No signed offer in the challenge verifies with the attestation key for these payment terms.",
    );
  });

  it("refuses an offer signed with another key, and a challenge without offers", async () => {
    const { paymentRequired, requirement } = await signedChallenge();
    const other = await signedChallenge();
    expect(await verifyOffer(paymentRequired, requirement, other.api.key, now)).toMatch(
      /^No signed offer/,
    );
    expect(
      await verifyOffer({ ...paymentRequired, extensions: {} }, requirement, other.api.key, now),
    ).toBe("The payment challenge carries no signed offer.");
  });
});
