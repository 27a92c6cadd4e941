import { receiptMessage } from "@presend/shared/api/receiptMessage";
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
import { type Address, type Hex, verifyMessage } from "viem";

export type FakePaidApiOptions = {
  payTo: Address;
  report: Report | DeepReport;
  /** Rewrites the challenge's payTo after it was attested and offered (a man in the middle). */
  challengePayTo?: Address;
  /**
   * After a payment: the real report, an altered one, a 402 before settlement, no answer, or the
   * server's 502 settlement_unknown (the settlement was sent, its outcome could not be read).
   */
  afterPayment?: "report" | "forged" | "refused" | "drop" | "unknown";
  /**
   * What GET /receipts/{payer}/{nonce} answers the payer (a bad signature is always 403): the
   * stored report signed as the server signs it, the same report altered, 409 settlement_unknown
   * (not decided yet), or 404 (never settled). Default: settled.
   */
  receipts?: "settled" | "forged" | "pending" | "missing";
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
    .setProtectedHeader({ alg: "ES256", kid, typ: "presend-attestation+jws" })
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
      "x-presend-attestation": {
        info: {
          jws,
          key,
          note: `presend signs its payTo, per-route maximum prices, network and asset with this ES256 key (kid ${kid}).`,
        },
      },
      "offer-receipt": { info: { offers: [offer] } },
    },
  };

  // The detached report signature, as the server's report signer makes it.
  const signReport = async (
    report: unknown,
    settlement: { transaction: string; network: string; payer: string },
  ) => {
    const header = base64url.encode(
      JSON.stringify({ alg: "ES256", kid, typ: reportSignatureType }),
    );
    const payload = base64url.encode(reportSigningInput(report, settlement));
    const signature = await signer.sign(new TextEncoder().encode(`${header}.${payload}`));
    return `${header}..${signature}`;
  };
  const transaction = `0x${"ab".repeat(32)}`;
  /** Payments that reached the server, by "payer nonce" in lowercase. */
  const paid = new Map<string, { payer: string; nonce: string }>();

  const answerReceipt = async (payer: string, nonce: string, signature: string | null) => {
    const record = paid.get(`${payer.toLowerCase()} ${nonce.toLowerCase()}`);
    const proven =
      record !== undefined &&
      signature !== null &&
      (await verifyMessage({
        address: payer as Address,
        message: receiptMessage(nonce),
        signature: signature as Hex,
      }).catch(() => false));
    const error = (status: number, code: string, message: string) =>
      new Response(JSON.stringify({ error: { code, message } }), { status });
    if (record === undefined) return error(404, "receipt_not_found", "No such paid request.");
    if (!proven) return error(403, "receipt_forbidden", "Only the payer may fetch this receipt.");
    const mode = options.receipts ?? "settled";
    if (mode === "pending") {
      return error(409, "settlement_unknown", "Whether this payment settled is not known yet.");
    }
    if (mode === "missing") {
      return error(404, "receipt_not_found", "This authorization was never settled.");
    }
    const settlement = { transaction, network, payer: record.payer };
    const signed = await signReport(options.report, settlement);
    const report =
      mode === "forged"
        ? { ...options.report, verdict: { ...options.report.verdict, headline: "Safe to send" } }
        : options.report;
    return new Response(
      JSON.stringify({
        tx: transaction,
        network,
        payer: record.payer,
        nonce: record.nonce,
        payTo: options.payTo,
        route: "/check",
        amount: "10000",
        createdAt: new Date(now * 1000).toISOString(),
        report,
        signature: signed,
      }),
      { status: 200 },
    );
  };

  /** Every request the API received: its URL and headers. */
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    requests.push({ url: String(url), headers });
    const receiptPath =
      /\/receipts\/(0x[0-9a-fA-F]{40})\/(0x[0-9a-fA-F]{64})(?:\?signature=(0x[0-9a-fA-F]+))?$/.exec(
        String(url),
      );
    if (receiptPath) {
      return answerReceipt(receiptPath[1] ?? "", receiptPath[2] ?? "", receiptPath[3] ?? null);
    }
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
    const { authorization } = decodePaymentSignatureHeader(payment).payload as {
      authorization: { from: string; nonce: string };
    };
    paid.set(`${authorization.from.toLowerCase()} ${authorization.nonce.toLowerCase()}`, {
      payer: authorization.from,
      nonce: authorization.nonce,
    });
    if (after === "unknown") {
      const path = `/receipts/${authorization.from.toLowerCase()}/${authorization.nonce}`;
      return new Response(
        JSON.stringify({
          error: {
            code: "settlement_unknown",
            message: `The settlement was sent and its outcome could not be read; fetch the report at ${path}.`,
          },
        }),
        { status: 502, headers: { "PRESEND-RECEIPT": `http://api.test${path}` } },
      );
    }
    const settlement = { transaction, network, payer: authorization.from };
    const receipt = await createReceiptJWS({ resourceUrl, ...settlement }, signer);
    const reportSignature = await signReport(options.report, settlement);
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
        [reportSignatureHeader]: reportSignature,
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
