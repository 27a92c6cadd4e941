import {
  AttestationBlockSchema,
  AttestationPayloadSchema,
  attestationExtensionKey,
} from "@presend/shared/attestation/attestationSchemas";
import { verifyAttestation } from "@presend/shared/attestation/verifyAttestation";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { describe, expect, it } from "vitest";
import { exampleReport } from "../exampleReport";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { fakePaidApi } from "./fakePaidApi";

const now = new Date("2025-06-01T12:00:00Z");
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const report = exampleReport({
  address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  checkedAt: now,
});

// The paid-check tests run the real client against this stand-in, so its 402 must be what the
// server sends: the attestation block of the shared schema, signed with jose as the server's
// issuer signs it (ES256 compact JWS, kid and typ presend-attestation+jws), verified by the
// same shared verification the client runs (the real check, not a stand-in).
describe("fakePaidApi", () => {
  it("answers the server's wire shape: the attestation verifies with the shared check", async () => {
    const api = await fakePaidApi({ payTo, report, now });
    const challenge = await api.fetch("http://api.test/check", { method: "POST" });
    expect(challenge.status).toBe(402);
    const required = decodePaymentRequiredHeader(challenge.headers.get("PAYMENT-REQUIRED") ?? "");
    const extension = required.extensions?.[attestationExtensionKey] as
      | { info: unknown }
      | undefined;
    const block = AttestationBlockSchema.parse(extension?.info);
    expect(decodeProtectedHeader(block.jws)).toEqual({
      alg: "ES256",
      kid: block.key.kid,
      typ: "presend-attestation+jws",
    });
    expect(AttestationPayloadSchema.parse(decodeJwt(block.jws))).toMatchObject({
      payTo,
      maxPrice: { "/check": routePrices.check.toString(), "/deep": routePrices.deep.toString() },
      network: baseNetwork,
      asset: baseUsdc,
    });
    const accepted = required.accepts[0];
    if (!accepted) throw new Error("no requirement");
    // Priced and placed by the one source the server charges by, not by numbers of its own.
    expect(accepted).toMatchObject({
      amount: routePrices.check.toString(),
      network: baseNetwork,
      asset: baseUsdc,
    });
    const verified = await verifyAttestation({
      block,
      route: "/check",
      payTo: accepted.payTo,
      amount: accepted.amount,
      network: accepted.network,
      asset: accepted.asset,
      now: Math.floor(now.getTime() / 1000),
    });
    expect(verified.type).toBe("valid");
    // And a payee swapped after signing is caught by that same check.
    const swapped = await verifyAttestation({
      block,
      route: "/check",
      payTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
      amount: accepted.amount,
      network: accepted.network,
      asset: accepted.asset,
      now: Math.floor(now.getTime() / 1000),
    });
    expect(swapped).toMatchObject({ type: "invalid", reason: "payto_mismatch" });
  });
});
