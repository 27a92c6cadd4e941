import { receiptMessage } from "@presend/shared/api/receiptMessage";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import {
  reportSignatureHeader,
  reportSignatureType,
  reportSigningInput,
} from "@presend/shared/attestation/reportSigningInput";
import { nativeUsdcDomain } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { PaymentPayload, PaymentRequired } from "@x402/core/types";
import { createOfferJWS, createReceiptJWS, type JWSSigner } from "@x402/extensions/offer-receipt";
import {
  declarePaymentIdentifierExtension,
  extractPaymentIdentifier,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { base64url, CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { type Address, type Hex, verifyMessage } from "viem";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";

export type FakePaidApiOptions = {
  payTo: Address;
  report: Report | DeepReport;
  /** Rewrites the challenge's payTo after it was attested and offered (a man in the middle). */
  challengePayTo?: Address;
  /**
   * After a payment: the real report, an altered one, a 402 before settlement, no answer, the
   * server's 502 settlement_unknown (the settlement was sent, its outcome could not be read), a
   * 402 whose PAYMENT-RESPONSE says the settlement failed with no transaction (nothing moved), or
   * one that says it is still pending with a transaction sent (it may yet move).
   */
  afterPayment?:
    | "report"
    | "forged"
    | "refused"
    | "drop"
    | "unknown"
    | "settlement_failed"
    | "settlement_pending";
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
 * ES256 key: without a payment header it answers 402 for the price of /check in USDC on Base to
 * `payTo` with the attestation, a signed offer and the payment-identifier extension; with one it
 * answers the report, its detached signature and a PAYMENT-RESPONSE with a signed receipt. A
 * payment carrying a payment id already paid is answered from that payment, as the server's
 * payment record answers it: the same settlement, nothing charged again.
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
  const network = baseNetwork;
  const asset = baseUsdc;
  const price = routePrices.check.toString();
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const jws = await new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({
        payTo: options.payTo,
        maxPrice: { "/check": price, "/deep": routePrices.deep.toString() },
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
    amount: price,
    payTo: options.payTo,
    maxTimeoutSeconds: 60,
    extra: { ...nativeUsdcDomain },
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
      [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(),
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
  /** Payments that reached the server, by "payer nonce" in lowercase, with the report paid for. */
  const paid = new Map<string, { payer: string; nonce: string; report: Report | DeepReport }>();
  /**
   * The payer and report of each payment id that paid, as the server's payment record keeps
   * them, with the nonce of a payment whose settlement is not known (`afterPayment: "unknown"`).
   */
  const paidById = new Map<
    string,
    { payer: string; report: Report | DeepReport; open: string | null }
  >();
  /**
   * The report as the server makes it for this request: a sender asked (`from`) is named in it,
   * as the real report names it, unless the test's report names one already.
   */
  const reportFor = (body: RequestInit["body"]): Report | DeepReport => {
    if (options.report.from !== undefined || typeof body !== "string") return options.report;
    const asked = (JSON.parse(body) as { from?: unknown }).from;
    return typeof asked === "string" ? { ...options.report, from: asked } : options.report;
  };

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
    const signed = await signReport(record.report, settlement);
    const report =
      mode === "forged"
        ? { ...record.report, verdict: { ...record.report.verdict, headline: "Safe to send" } }
        : record.report;
    return new Response(
      JSON.stringify({
        tx: transaction,
        network,
        payer: record.payer,
        nonce: record.nonce,
        payTo: options.payTo,
        route: "/check",
        amount: price,
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
    const payload = decodePaymentSignatureHeader(payment);
    const { authorization } = payload.payload as {
      authorization: { from: string; nonce: string };
    };
    const paymentId = extractPaymentIdentifier(payload as PaymentPayload, true);
    const recorded = paymentId === null ? undefined : paidById.get(paymentId);
    if (recorded?.open) return unknownOutcome(recorded.payer, recorded.open);
    if (recorded !== undefined) return settled(recorded.payer, recorded.report);
    if (after === "settlement_failed" || after === "settlement_pending") {
      // What the official middleware answers when the facilitator's settle says it failed.
      return new Response(JSON.stringify({ ...challenge, error: after }), {
        status: 402,
        headers: {
          "PAYMENT-REQUIRED": encodePaymentRequiredHeader({ ...challenge, error: after }),
          "PAYMENT-RESPONSE": encodePaymentResponseHeader({
            success: false,
            errorReason: after,
            transaction: after === "settlement_pending" ? transaction : "",
            network,
            payer: authorization.from,
          }),
        },
      });
    }
    const report = reportFor(init?.body);
    if (paymentId !== null) {
      const open = after === "unknown" ? authorization.nonce : null;
      paidById.set(paymentId, { payer: authorization.from, report, open });
    }
    paid.set(`${authorization.from.toLowerCase()} ${authorization.nonce.toLowerCase()}`, {
      payer: authorization.from,
      nonce: authorization.nonce,
      report,
    });
    if (after === "unknown") return unknownOutcome(authorization.from, authorization.nonce);
    return settled(authorization.from, report);
  };
  /** The server's 502 for a payment whose settlement is not known; a retry by id names the first. */
  const unknownOutcome = (payer: string, nonce: string) => {
    const path = `/receipts/${payer.toLowerCase()}/${nonce}`;
    return new Response(
      JSON.stringify({
        error: {
          code: "settlement_unknown",
          message: `The settlement was sent and its outcome could not be read; fetch the report at ${path}.`,
        },
      }),
      { status: 502, headers: { "PRESEND-RECEIPT": `http://api.test${path}` } },
    );
  };
  const settled = async (payer: string, report: Report | DeepReport) => {
    const settlement = { transaction, network, payer };
    const receipt = await createReceiptJWS({ resourceUrl, ...settlement }, signer);
    const reportSignature = await signReport(report, settlement);
    const body =
      options.afterPayment === "forged"
        ? { ...report, verdict: { ...report.verdict, headline: "Safe to send" } }
        : report;
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
    /** How many authorizations were taken for payment (a payment id paid before is not taken again). */
    payments: () => paid.size,
    transaction,
    key,
    fingerprint: await calculateJwkThumbprint(key, "sha256"),
  };
}
