import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { Address } from "viem";
import type { DeepReport, Report } from "../../../../shared/api/report";
import type { AttestationResult } from "../../../../shared/attestation/verifyAttestation";

/**
 * A stand-in for the API in tests of the paid check: without a payment header it answers 402
 * with a challenge for $0.01 USDC on Base to `payTo` (carrying an attestation block), with one
 * it answers `report`. `attestation` is what a verifier accepting that challenge returns.
 * @example const api = fakePaidApi({ payTo, report }); deps.fetch = api.fetch; deps.verify = async () => api.attestation
 */
export function fakePaidApi(options: { payTo: Address; report: Report | DeepReport }) {
  const challenge: PaymentRequired = {
    x402Version: 2,
    resource: { url: "http://api.test/check", description: "check", mimeType: "application/json" },
    accepts: [
      {
        scheme: "exact",
        network: "eip155:8453",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        amount: "10000",
        payTo: options.payTo,
        maxTimeoutSeconds: 60,
        extra: { name: "USD Coin", version: "2" },
      },
    ],
    extensions: { "x-presend-attestation": { info: { jws: "a.b.c", key: {}, note: "" } } },
  };
  const attestation: AttestationResult = {
    type: "valid",
    payload: { payTo: options.payTo, maxPrice: { "/check": "10000" }, iat: 0, exp: 2e9 },
    block: {
      jws: "a.b.c",
      key: {
        kty: "EC",
        crv: "P-256",
        alg: "ES256",
        use: "sig",
        x: "x",
        y: "y",
        kid: "presend-2025-06",
      },
      note: "",
    },
    thumbprint: "thumb-1",
  };
  /** Every request the API received: its URL and headers. */
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    requests.push({ url: String(url), headers });
    if (!headers["PAYMENT-SIGNATURE"]) {
      return new Response("{}", {
        status: 402,
        headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge) },
      });
    }
    return new Response(JSON.stringify(options.report), { status: 200 });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests, attestation };
}
