import type { DeepReport, Report } from "@presend/shared/api/report";
import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import {
  reportSignatureHeader,
  reportSignatureType,
  reportSigningInput,
} from "@presend/shared/attestation/reportSigningInput";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { createOfferJWS, createReceiptJWS, type JWSSigner } from "@x402/extensions/offer-receipt";
import { base64url, CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import type { Address } from "viem";

export type FakePaidApiOptions = {
  payTo: Address;
  report: Report | DeepReport;
  /** Rewrites the challenge's payTo after it was attested and offered (a man in the middle). */
  challengePayTo?: Address;
  /** After a payment: the real report, an altered one, a 402 before settlement, or no answer. */
  afterPayment?: "report" | "forged" | "refused" | "drop";
  /** The clock of the test: the attestation is signed as of then. */
  now?: Date;
};

/**
 * A stand-in for the API in tests of the paid check, signing like the real one with its own
 * ES256 key: without a payment header it answers 402 for $0.01 USDC on Base to `payTo` with the
 * attestation and a signed offer; with one it answers the report, its detached signature and a
 * PAYMENT-RESPONSE with a signed receipt.
 * @example const api = await fakePaidApi({ payTo, report }); deps.fetch = api.fetch;
 */
export async function fakePaidApi(options: FakePaidApiOptions) {
  const kid = "presend-2025-06";
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const key: AttestationKey = {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    x: jwk.x ?? "",
    y: jwk.y ?? "",
    kid,
  };
  const signer: JWSSigner = {
    kid,
    format: "jws",
    algorithm: "ES256",
    async sign(payload) {
      const signature = await crypto.subtle.sign(
        { name: "ECDSA", hash: "SHA-256" },
        privateKey as CryptoKey,
        payload as Uint8Array<ArrayBuffer>,
      );
      return base64url.encode(new Uint8Array(signature));
    },
  };
  const network = "eip155:8453";
  const asset = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const jws = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({
        payTo: options.payTo,
        maxPrice: { "/check": "10000", "/deep": "50000" },
        network,
        asset,
        iat: now - 60,
        exp: now + 3600,
      }),
    ),
  )
    .setProtectedHeader({ alg: "ES256", kid })
    .sign(privateKey);
  const resourceUrl = "http://api.test/check";
  const requirement = {
    scheme: "exact",
    network,
    asset,
    amount: "10000",
    payTo: options.payTo,
    maxTimeoutSeconds: 60,
    extra: { name: "USD Coin", version: "2" },
  } as const;
  const offer = await createOfferJWS(resourceUrl, { acceptIndex: 0, ...requirement }, signer);
  const challenge: PaymentRequired = {
    x402Version: 2,
    resource: { url: resourceUrl, description: "check", mimeType: "application/json" },
    accepts: [{ ...requirement, payTo: options.challengePayTo ?? options.payTo }],
    extensions: {
      "x-presend-attestation": { info: { jws, key, note: "" } },
      "offer-receipt": { info: { offers: [offer] } },
    },
  };

  /** Every request the API received: its URL and headers. */
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    requests.push({ url: String(url), headers });
    const payment = headers["PAYMENT-SIGNATURE"];
    if (!payment) {
      return new Response("{}", {
        status: 402,
        headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge) },
      });
    }
    const after = options.afterPayment ?? "report";
    if (after === "drop") throw new TypeError("fetch failed: the connection was reset");
    if (after === "refused") {
      return new Response(
        JSON.stringify({ ...challenge, error: "invalid_exact_evm_payload_signature" }),
        {
          status: 402,
          headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge) },
        },
      );
    }
    const paid = decodePaymentSignatureHeader(payment).payload as {
      authorization: { from: string };
    };
    const settlement = {
      transaction: `0x${"ab".repeat(32)}`,
      network,
      payer: paid.authorization.from,
    };
    const receipt = await createReceiptJWS({ resourceUrl, ...settlement }, signer);
    const header = base64url.encode(
      JSON.stringify({ alg: "ES256", kid, typ: reportSignatureType }),
    );
    const payload = base64url.encode(reportSigningInput(options.report, settlement));
    const signature = await signer.sign(new TextEncoder().encode(`${header}.${payload}`));
    const body =
      after === "forged"
        ? { ...options.report, verdict: { ...options.report.verdict, headline: "Safe to send" } }
        : options.report;
    return new Response(JSON.stringify(body), {
      status: 200,
      headers: {
        "PAYMENT-RESPONSE": encodePaymentResponseHeader({
          success: true,
          ...settlement,
          network,
          extensions: { "offer-receipt": { info: { receipt } } },
        }),
        [reportSignatureHeader]: `${header}..${signature}`,
      },
    });
  };
  return {
    fetch: fetch as typeof globalThis.fetch,
    requests,
    key,
    fingerprint: await calculateJwkThumbprint(key, "sha256"),
  };
}
