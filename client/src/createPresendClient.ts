import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { ReceiptSchema } from "@presend/shared/api/receipt";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import {
  type DeepReport,
  DeepReportSchema,
  type Report,
  ReportSchema,
} from "@presend/shared/api/report";
import { ValidateResponseSchema } from "@presend/shared/api/validate";
import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { verifyAttestation } from "@presend/shared/attestation/verifyAttestation";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import type { ChainName } from "@presend/shared/chains/chains";
import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import {
  extractOffersFromPaymentRequired,
  extractReceiptFromResponse,
  isJWSSignedOffer,
  isJWSSignedReceipt,
  verifyOfferSignatureJWS,
  verifyReceiptSignatureJWS,
} from "@x402/extensions/offer-receipt";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
  isValidPaymentId,
  PAYMENT_IDENTIFIER,
} from "@x402/extensions/payment-identifier";
import { type Address, type Hex, isHash } from "viem";
import { z } from "zod";
import { checkChannelRequirement } from "./channels/checkChannelRequirement";
import {
  type ChannelCloseResult,
  type ChannelPayer,
  type ChannelPaymentOptions,
  createChannelPayer,
} from "./channels/createChannelPayer";
import { baseNetwork, checkRequirement } from "./checkRequirement";
import type { PinRecord, PinStore } from "./PinStore";
import type {
  ClientEvent,
  PaidOutcome,
  PaidResult,
  ReceiptResult,
  RefusalCode,
  SentAuthorization,
  Settlement,
  ValidateResult,
} from "./PresendResult";
import type { Reservation, SpendCap } from "./SpendCap";

/** The paying key: a viem account, or a wallet reached some other way (the extension's tab). */
export type PresendSigner = {
  address: Address;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
  /** EIP-191 personal_sign; proves the payer to /receipts when a report must be fetched again. */
  signMessage(args: { message: string }): Promise<Hex>;
};

export type PresendClientOptions = {
  /** The API, e.g. https://api.presend.example (a path is kept; keys are pinned per origin). */
  url: string;
  /** Who pays; a function is asked only once a payment is about to be signed. */
  signer?: PresendSigner | (() => Promise<PresendSigner>);
  /** Most one check may cost, in USDC base units; the attested price is checked regardless. */
  maxPrice?: bigint;
  pinStore: PinStore;
  spendCap?: SpendCap;
  fetch?: typeof fetch;
  onEvent?: (event: ClientEvent) => void;
  /** Clock, injectable for tests. */
  now?: () => Date;
  /**
   * Sign in (Sign-In-With-X, one EIP-191 signature) before paying: a wallet that paid for the
   * same check in the server's re-read window gets that report again instead of paying again.
   * Off by default: with a wallet in a browser each sign-in is a prompt.
   */
  signIn?: boolean;
  /**
   * Pay through an x402 batch-settlement channel when the server offers one that matches the
   * attested terms: one deposit by the signer, then vouchers by this session key (off without).
   */
  channel?: ChannelPaymentOptions;
};

export type CheckInput = {
  address: string;
  chain?: ChainName;
  /**
   * The sender (the account the money comes from): the check then reads its own payments on the
   * chain (address poisoning, first-time recipient). Same rules as `address`, not equal to it.
   */
  from?: string;
  /**
   * The x402 payment-identifier sent with the payment (16-128 of A-Z a-z 0-9 _ -; default: a
   * new one per call). Retrying a call with the same id and body gets the same report, charged
   * once; the same id with another body is refused (409 payment_id_conflict).
   */
  paymentId?: string;
};

export type PresendClient = {
  /** The free checksum pre-check (GET /validate). */
  validate(address: string): Promise<ValidateResult>;
  /** One chain, paid (POST /check). */
  check(input: CheckInput): Promise<PaidResult<Report>>;
  /** Five chains, paid (POST /deep). */
  deep(input: CheckInput): Promise<PaidResult<DeepReport>>;
  /**
   * A paid report fetched again: by settlement transaction (GET /receipts/{tx}), or by payer and
   * authorization nonce when the transaction was never learned (GET /receipts/{payer}/{nonce}).
   */
  receipt(key: Hex | { payer: Address; nonce: Hex }): Promise<ReceiptResult>;
  /**
   * Closes this client's payment channel with the server (when `channel` is configured): what
   * was charged is claimed, the rest of the deposit goes back to the payer on chain.
   */
  closeChannel(): Promise<ChannelCloseResult>;
};

type Route = "/check" | "/deep";

/** How a stored report is found again. */
type ReceiptKey = { transaction: Hex } | { authorization: SentAuthorization };

function authorizationPath(authorization: Pick<SentAuthorization, "payer" | "nonce">): string {
  return `/receipts/${authorization.payer}/${authorization.nonce}`;
}

/**
 * How long a call waits for another call with the same payment id to finish (a request can take
 * verification, the engine and a settlement: about the authorization's 60 s validity at most).
 */
const inFlightWaitMs = 90_000;

/** 409 codes that refuse this request's authorization before it is verified: nothing charged for it. */
const paymentIdRefusals = new Set(["payment_id_conflict", "payment_id_in_flight"]);

/**
 * A settlement response that says nothing moved: success false and no transaction (an empty one
 * is how x402 says none was sent).
 */
const SettleFailureSchema = z.object({
  success: z.literal(false),
  transaction: z.literal("").optional(),
  errorReason: z.string().optional(),
});

/** 503 codes that promise nothing was charged (the target or payment chain was unreadable). */
const notChargedUnavailable = new Set(["chain_unavailable", "payment_network_unavailable"]);

/**
 * The presend client: one attested-payment policy for every caller. Before signing it verifies
 * the payee attestation against the pinned key (pinned on first use), the signed offer, payTo,
 * price, network, asset, validity and the caps; it never follows a redirect; it says "charged:
 * unknown" unless the answer proves otherwise, then fetches the report through /receipts; it
 * reports the settlement before reading the report, and trusts a report only with a valid signature.
 * @example
 * const presend = createPresendClient({ url, signer: privateKeyToAccount(key), pinStore: createMemoryPinStore() });
 * const result = await presend.check({ address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" });
 * if (result.type === "report") console.log(result.report.verdict.headline);
 */
export function createPresendClient(options: PresendClientOptions): PresendClient {
  const base = options.url.replace(/\/+$/, "");
  const origin = new URL(base).origin;
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  const emit = options.onEvent ?? (() => {});
  const now = options.now ?? (() => new Date());
  const http = new x402HTTPClient(new x402Client());
  let signerPromise: Promise<PresendSigner> | null = null;
  const signer = (): Promise<PresendSigner> | null => {
    if (options.signer === undefined) return null;
    const given = options.signer;
    if (signerPromise === null) {
      const asked = typeof given === "function" ? given() : Promise.resolve(given);
      // A wallet that failed once (no wallet yet, a declined connect) is asked again next time.
      signerPromise = asked.catch((error: unknown) => {
        signerPromise = null;
        throw error;
      });
    }
    return signerPromise;
  };
  let channelPayer: Promise<ChannelPayer> | null = null;
  // Never follow a redirect: a payment header must reach the server that was verified, only.
  const send = (path: string, init: RequestInit = {}) =>
    fetchFn(`${base}${path}`, { ...init, redirect: "manual" });

  async function paid<R extends Report | DeepReport>(
    route: Route,
    input: CheckInput,
  ): Promise<PaidResult<R>> {
    const sent: { paymentId: string | null } = { paymentId: null };
    const outcome = await pay<R>(route, input, sent);
    return { ...outcome, paymentId: sent.paymentId };
  }

  async function pay<R extends Report | DeepReport>(
    route: Route,
    input: CheckInput,
    sent: { paymentId: string | null },
  ): Promise<PaidOutcome<R>> {
    const local = checksumStatus(input.address);
    if (!local.valid) return refused("invalid_address", local.checksum.message);
    if (input.from !== undefined) {
      const sender = checksumStatus(input.from);
      if (!sender.valid) return refused("invalid_from", `from: ${sender.checksum.message}`);
      if (input.from.trim().toLowerCase() === input.address.trim().toLowerCase()) {
        return refused("from_equals_address", "from is the address being checked; leave it out.");
      }
    }
    // An id the server cannot read would be ignored there, and the retry charged again.
    if (input.paymentId !== undefined && !isValidPaymentId(input.paymentId)) {
      return refused(
        "invalid_payment_id",
        `The payment id must be 16 to 128 of A-Z a-z 0-9 _ -, got "${input.paymentId.slice(0, 40)}".`,
      );
    }
    const body = JSON.stringify({
      address: input.address.trim(),
      chain: input.chain ?? "base",
      ...(input.from !== undefined && { from: input.from.trim() }),
    });
    const post = (headers: Record<string, string> = {}) =>
      send(route, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });

    // 1. The challenge. Nothing is signed yet, so every failure here costs nothing.
    let challenge: Response;
    try {
      challenge = await post();
    } catch (cause) {
      return notCharged("unreachable", null, `Cannot reach ${base}: ${describe(cause)}`);
    }
    if (isRedirect(challenge)) {
      return refused(
        "redirect",
        `${base}${route} answered with a redirect; refusing to follow it with a payment.`,
      );
    }
    if (challenge.status !== 402) {
      const error = await errorOf(challenge);
      return notCharged(error.code, challenge.status, error.message);
    }
    let paymentRequired: PaymentRequired;
    try {
      const challengeBody: unknown = await challenge.json().catch(() => undefined);
      paymentRequired = http.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        challengeBody,
      );
    } catch (cause) {
      return refused("unexpected_challenge", `Unreadable payment challenge: ${describe(cause)}`);
    }

    // 2. The policy: requirement, attestation, pinned key, offer, price, cap.
    const picked = checkRequirement(paymentRequired.accepts);
    if (picked.type === "refused") return refused(picked.code, picked.message);
    const { requirement } = picked;
    const attestation = paymentRequired.extensions?.[attestationExtensionKey] as
      | { info?: unknown }
      | undefined;
    if (attestation?.info === undefined) {
      return refused(
        "attestation_missing",
        "The payment challenge carries no payee attestation; refusing to pay an unattested payee.",
      );
    }
    let pinned: PinRecord | undefined;
    try {
      pinned = await options.pinStore.get(origin);
    } catch (cause) {
      return refused("pin_store_unreadable", `The pinned keys cannot be read: ${describe(cause)}`);
    }
    const attested = await verifyAttestation({
      block: attestation.info,
      route,
      payTo: requirement.payTo,
      amount: requirement.amount,
      network: requirement.network,
      asset: requirement.asset,
      now: Math.floor(now().getTime() / 1000),
      ...(pinned ? { pinnedThumbprint: pinned.fingerprint } : {}),
    });
    if (attested.type === "invalid") {
      const code: RefusalCode =
        attested.reason === "key_changed" ||
        attested.reason === "payto_mismatch" ||
        attested.reason === "price_above_attested"
          ? attested.reason
          : attested.reason === "network_mismatch" || attested.reason === "asset_mismatch"
            ? attested.reason
            : "attestation_invalid";
      const hint =
        attested.reason === "key_changed"
          ? ` If the operator really rotated the key, remove the pin for ${origin} to trust the new one.`
          : "";
      return refused(code, `${attested.message}${hint}`);
    }
    const offer = await verifyOffer(paymentRequired, requirement, attested.block.key, now());
    if (offer !== null) return refused("offer_invalid", offer);
    const amount = BigInt(requirement.amount);
    if (options.maxPrice !== undefined && amount > options.maxPrice) {
      return refused(
        "over_max_price",
        `${route} costs ${usdc(amount)} USDC, above the most you allow (${usdc(options.maxPrice)}).`,
      );
    }
    const pin: PinRecord = pinned ?? {
      jwk: attested.block.key,
      fingerprint: attested.thumbprint,
      pinnedAt: now().toISOString(),
      apiUrl: origin,
    };
    if (!pinned) {
      await options.pinStore.set(origin, pin);
      emit({ type: "pinned", origin, kid: pin.jwk.kid, fingerprint: pin.fingerprint });
    }
    const payingSigner = signer();
    if (payingSigner === null) return refused("no_signer", "No paying key is configured.");
    if (options.signIn) {
      const again = await signedInReread<R>(route, paymentRequired, requirement, pin, post);
      if (again !== null) return again;
    }
    const channel = options.channel;
    if (channel) {
      // A channel offer is held to the attested exact terms; one that differs is refused.
      const offered = checkChannelRequirement(paymentRequired.accepts, requirement);
      if (offered.type === "refused") return refused(offered.code, offered.message);
      if (offered.type === "accepted") {
        const channelOffer = await verifyOffer(
          paymentRequired,
          offered.requirement,
          attested.block.key,
          now(),
        );
        if (channelOffer !== null) return refused("offer_invalid", channelOffer);
        emit({
          type: "verified",
          amount: requirement.amount,
          payTo: requirement.payTo as Address,
          fingerprint: pin.fingerprint,
          pinnedNow: !pinned,
        });
        channelPayer ??= payingSigner.then((payer) =>
          createChannelPayer({
            payer,
            channel,
            ...(options.spendCap && { spendCap: options.spendCap }),
            emit,
          }),
        );
        const payer = await channelPayer.catch((cause: unknown) => cause);
        if (!(typeof payer === "object" && payer !== null && "pay" in payer)) {
          channelPayer = null;
          return notCharged("signing_failed", null, `No paying key: ${describe(payer)}`);
        }
        return (payer as ChannelPayer).pay<R>({
          paymentRequired,
          requirement: offered.requirement,
          route,
          pin,
          post,
        });
      }
    }
    // Sent only to a server that declares payment-identifier: one that does not would ignore it.
    const paymentId =
      paymentRequired.extensions?.[PAYMENT_IDENTIFIER] !== undefined
        ? (input.paymentId ?? generatePaymentId())
        : null;
    let reservation: Reservation | null = null;
    if (options.spendCap) {
      // The server charges a payment id once: a retry with it is the same payment to the cap.
      const reserved = await options.spendCap.reserve(
        amount,
        paymentId === null ? undefined : { key: `${origin} ${paymentId}` },
      );
      if (reserved.type === "refused") return refused("cap_reached", reserved.message);
      reservation = reserved.reservation;
    }
    emit({
      type: "verified",
      amount: requirement.amount,
      payTo: requirement.payTo as Address,
      fingerprint: pin.fingerprint,
      pinnedNow: !pinned,
    });

    // 3. Sign with the official x402 client, offered only the requirement that was verified.
    let payer: PresendSigner;
    let payload: PaymentPayload;
    try {
      payer = await payingSigner;
      const client = new x402Client().register(baseNetwork, new ExactEvmScheme(payer));
      const extensions = { ...paymentRequired.extensions };
      if (paymentId !== null) {
        appendPaymentIdentifierToExtensions(extensions, paymentId);
        sent.paymentId = paymentId;
      }
      payload = await new x402HTTPClient(client).createPaymentPayload({
        ...paymentRequired,
        extensions,
        accepts: [requirement],
      });
    } catch (cause) {
      await reservation?.release();
      return { ...notCharged("signing_failed", null, `Signing failed: ${describe(cause)}`), cause };
    }
    const authorization = sentAuthorization(payload, payer, requirement);

    // 4. Pay. From here on money may move: counted first, refunded only on proof.
    await reservation?.spend();
    emit({ type: "paying" });
    let answer: Response;
    try {
      const paymentHeaders = http.encodePaymentSignatureHeader(payload);
      answer = await post(paymentHeaders);
      // Another call with this payment id is being served: once it has answered, the same
      // payment is answered from its record (the same report, charged once), never paid again.
      for (
        let waitedMs = 0, stepMs = 250;
        waitedMs < inFlightWaitMs && (await errorCode(answer)) === "payment_id_in_flight";
        waitedMs += stepMs, stepMs = Math.min(stepMs * 2, 2_000)
      ) {
        await new Promise((resolve) => setTimeout(resolve, stepMs));
        answer = await post(paymentHeaders);
      }
    } catch (cause) {
      return unknown(
        `The paid request failed before an answer arrived (${describe(cause)}).`,
        null,
      );
    }
    const settlement = readSettlement(answer, requirement);
    if (answer.status === 200 && settlement !== null) {
      emit({ type: "settled", settlement });
      return delivered<R>(route, answer, settlement, pin, authorization);
    }
    const failedReason = settlementFailure(answer);
    if (failedReason !== null) {
      await reservation?.release();
      return notCharged(
        "settlement_failed",
        answer.status,
        `The server tried to settle the payment and says it failed (${failedReason}) without sending a transaction: nothing was charged.`,
      );
    }
    if (settlement === null && (await provesNoCharge(answer))) {
      await reservation?.release();
      const error = await errorOf(answer.clone());
      return notCharged(error.code, answer.status, error.message);
    }
    if (settlement !== null) emit({ type: "settled", settlement });
    const what = isRedirect(answer)
      ? "The paid request was answered with a redirect (not followed)."
      : `The paid request was answered with HTTP ${answer.status}.`;
    return unknown(what, settlement);

    async function unknown(what: string, known: Settlement | null): Promise<PaidOutcome<R>> {
      const recovered =
        known !== null
          ? await recover<R>({ transaction: known.transaction }, pin, payer, route)
          : await recover<R>({ authorization }, pin, payer, route);
      if (recovered !== null) return recovered;
      const byNonce = `${base}${authorizationPath(authorization)}`;
      return {
        type: "unrecovered",
        charged: known !== null ? true : "unknown",
        settlement: known,
        authorization,
        message: `${what} Charged: ${known !== null ? `yes, settlement ${known.transaction}` : "unknown"}.`,
        recover:
          known !== null
            ? `GET ${base}/receipts/${known.transaction}?signature=<the payer's EIP-191 signature of "${receiptMessage(known.transaction)}">`
            : `GET ${byNonce}?signature=<the payer's EIP-191 signature of "${receiptMessage(authorization.nonce)}">; if the payment settled it answers the report (an authorization cannot settle after ${requirement.maxTimeoutSeconds} s).`,
      };
    }
  }

  async function delivered<R extends Report | DeepReport>(
    route: Route,
    answer: Response,
    settlement: Settlement,
    pin: PinRecord,
    authorization: SentAuthorization,
  ): Promise<PaidOutcome<R>> {
    const signature = answer.headers.get(reportSignatureHeader);
    const receipt = await verifyReceipt(answer, settlement, pin);
    const body: unknown = await answer.json().catch(() => undefined);
    const schema = route === "/deep" ? DeepReportSchema : ReportSchema;
    const report = schema.safeParse(body);
    if (!report.success) {
      // Charged for sure; the stored copy may still be readable.
      const payer = await signer();
      const recovered = payer
        ? await recover<R>({ transaction: settlement.transaction }, pin, payer, route)
        : null;
      if (recovered !== null) return recovered;
      return {
        type: "unrecovered",
        charged: true,
        settlement,
        authorization,
        message: `Paid (settlement ${settlement.transaction}), but the report is unreadable and could not be fetched again.`,
        recover: `GET ${base}/receipts/${settlement.transaction} signed by the payer.`,
      };
    }
    const verified = await verifyReportSignature({
      signature,
      report: body,
      settlement,
      key: pin.jwk,
    });
    if (verified.type === "forged") {
      return { type: "forged", charged: true, settlement, report: body, message: verified.message };
    }
    if (receipt !== "verified") {
      return { type: "forged", charged: true, settlement, report: body, message: receipt };
    }
    return {
      type: "report",
      report: report.data as R,
      settlement,
      signature: "verified",
      receipt: "verified",
      recovered: false,
      charged: true,
    };
  }

  /**
   * The report this wallet already paid for, asked for again signed in (no payment sent): null
   * unless the server answers it with a settlement, a report signature and a receipt that all
   * verify with the pinned key, so anything else goes on to the usual payment.
   */
  async function signedInReread<R extends Report | DeepReport>(
    route: Route,
    paymentRequired: PaymentRequired,
    requirement: PaymentRequirements,
    pin: PinRecord,
    post: (headers?: Record<string, string>) => Promise<Response>,
  ): Promise<PaidOutcome<R> | null> {
    try {
      const payer = await signer();
      if (payer === null) return null;
      // Loaded only by callers that sign in: the extension's bundle does not carry it.
      const { signInHeader, signInHeaderName } = await import("./signInHeader");
      const header = await signInHeader(paymentRequired, baseNetwork, payer, `${base}${route}`);
      if (header === null) return null;
      const answer = await post({ [signInHeaderName]: header });
      const settlement = readSettlement(answer, requirement);
      if (answer.status !== 200 || settlement === null) return null;
      if (settlement.payer.toLowerCase() !== payer.address.toLowerCase()) return null;
      const receipt = await verifyReceipt(answer, settlement, pin);
      const signature = answer.headers.get(reportSignatureHeader);
      const body: unknown = await answer.json();
      const report = (route === "/deep" ? DeepReportSchema : ReportSchema).safeParse(body);
      const verified = await verifyReportSignature({
        signature,
        report: body,
        settlement,
        key: pin.jwk,
      });
      if (!report.success || verified.type !== "verified" || receipt !== "verified") return null;
      return {
        type: "report",
        report: report.data as R,
        settlement,
        signature: "verified",
        receipt: "verified",
        recovered: true,
        charged: true,
        signedIn: true,
      };
    } catch {
      return null;
    }
  }

  async function recover<R extends Report | DeepReport>(
    by: ReceiptKey,
    pin: PinRecord,
    payer: PresendSigner,
    route: Route | null,
  ): Promise<PaidOutcome<R> | null> {
    emit({ type: "recovering", ...by });
    const fetched = await fetchReceipt(by, payer);
    if (fetched.type !== "found") return null;
    return trustReceipt<R>(fetched.body, pin, route, by);
  }

  async function fetchReceipt(
    by: ReceiptKey,
    payer: PresendSigner,
  ): Promise<
    | { type: "found"; body: unknown }
    | { type: "missing"; status: number | null; code: string | null; message: string }
  > {
    try {
      const id = "transaction" in by ? by.transaction : by.authorization.nonce;
      const path =
        "transaction" in by ? `/receipts/${by.transaction}` : authorizationPath(by.authorization);
      const proof = await payer.signMessage({ message: receiptMessage(id) });
      const response = await send(`${path}?signature=${proof}`);
      if (response.status !== 200) {
        const error = await errorOf(response);
        return {
          type: "missing",
          status: response.status,
          code: error.code,
          message: error.message,
        };
      }
      return { type: "found", body: await response.json() };
    } catch (cause) {
      return { type: "missing", status: null, code: null, message: describe(cause) };
    }
  }

  async function trustReceipt<R extends Report | DeepReport>(
    body: unknown,
    pin: PinRecord,
    route: Route | null,
    by: ReceiptKey,
  ): Promise<PaidOutcome<R> | null> {
    const parsed = ReceiptSchema.safeParse(body);
    if (!parsed.success) return null;
    const stored = parsed.data;
    const receiptRoute = stored.route === "/deep" ? "/deep" : "/check";
    if (route !== null && stored.route !== route) return null;
    const settlement: Settlement = {
      transaction: stored.tx as Hex,
      network: stored.network,
      payer: stored.payer as Address,
      amount: stored.amount,
      payTo: stored.payTo as Address,
    };
    // The stored payment must be the one asked for: a server cannot answer with another.
    const matches =
      "transaction" in by
        ? settlement.transaction.toLowerCase() === by.transaction.toLowerCase()
        : stored.nonce.toLowerCase() === by.authorization.nonce.toLowerCase() &&
          settlement.payer.toLowerCase() === by.authorization.payer.toLowerCase();
    if (!matches) return null;
    const verified = await verifyReportSignature({
      signature: stored.signature,
      report: stored.report,
      settlement,
      key: pin.jwk,
    });
    if (verified.type === "forged") {
      return {
        type: "forged",
        charged: true,
        settlement,
        report: stored.report,
        message: verified.message,
      };
    }
    const schema = receiptRoute === "/deep" ? DeepReportSchema : ReportSchema;
    const report = schema.safeParse(stored.report);
    if (!report.success) return null;
    return {
      type: "report",
      report: report.data as R,
      settlement,
      signature: "verified",
      receipt: null,
      recovered: true,
      charged: true,
    };
  }

  return {
    async validate(address) {
      let response: Response;
      try {
        response = await send(`/validate?address=${encodeURIComponent(address)}`);
      } catch (cause) {
        return {
          type: "failed",
          status: null,
          code: "unreachable",
          message: `Cannot reach ${base}: ${describe(cause)}`,
        };
      }
      if (response.status !== 200) {
        const error = await errorOf(response);
        return { type: "failed", status: response.status, ...error };
      }
      const parsed = ValidateResponseSchema.safeParse(await response.json().catch(() => null));
      if (!parsed.success) {
        return {
          type: "failed",
          status: 200,
          code: "malformed_answer",
          message: "The server's answer is malformed.",
        };
      }
      return { type: "validated", result: parsed.data };
    },
    check: (input) => paid<Report>("/check", input),
    deep: (input) => paid<DeepReport>("/deep", input),
    receipt: (key) => fetchStored(key),
    async closeChannel() {
      const channel = options.channel;
      const payingSigner = signer();
      if (!channel || payingSigner === null) {
        return { type: "failed", message: "No payment channel is configured." };
      }
      channelPayer ??= payingSigner.then((payer) =>
        createChannelPayer({
          payer,
          channel,
          ...(options.spendCap && { spendCap: options.spendCap }),
          emit,
        }),
      );
      try {
        // The same transport as the checks: never following a redirect.
        const noRedirect: typeof fetch = (input, init) =>
          fetchFn(input, { ...init, redirect: "manual" });
        return await (await channelPayer).close(`${base}/check`, noRedirect);
      } catch (cause) {
        channelPayer = null;
        return { type: "failed", message: `No paying key: ${describe(cause)}` };
      }
    },
  };

  async function fetchStored(key: Parameters<PresendClient["receipt"]>[0]): Promise<ReceiptResult> {
    const by: ReceiptKey =
      typeof key === "string"
        ? { transaction: key }
        : { authorization: { ...key, amount: "", payTo: "0x" as Address } };
    const unavailable = (code: string, status: number | null, message: string) => ({
      type: "receipt_unavailable" as const,
      code,
      status,
      message,
      charged: "unknown" as const,
    });
    const pin = await options.pinStore.get(origin);
    if (pin === undefined) {
      return unavailable(
        "attestation_missing",
        null,
        `No key is pinned for ${origin}: a report cannot be verified without one.`,
      );
    }
    const payingSigner = signer();
    if (payingSigner === null) {
      return unavailable("no_signer", null, "Fetching a receipt needs the payer's key.");
    }
    const fetched = await fetchReceipt(by, await payingSigner);
    if (fetched.type === "missing") {
      // Only the server saying it holds no settled payment proves nothing was charged; a 409
      // (not decided yet), a 403 (another signer) or no answer says nothing about the charge.
      if (fetched.status === 404 && fetched.code === "receipt_not_found") {
        return notCharged("receipt_not_found", 404, fetched.message);
      }
      const code = fetched.status === 409 ? "receipt_pending" : (fetched.code ?? "unreachable");
      return unavailable(code, fetched.status, fetched.message);
    }
    const trusted = await trustReceipt<Report | DeepReport>(fetched.body, pin, null, by);
    if (trusted !== null && (trusted.type === "report" || trusted.type === "forged")) {
      return trusted;
    }
    return {
      type: "forged",
      charged: "unknown",
      settlement: null,
      report: fetched.body,
      message: "The stored receipt is malformed or names another payment.",
    };
  }
}

function refused(
  code: RefusalCode,
  message: string,
): { type: "refused"; code: RefusalCode; message: string; charged: false } {
  return { type: "refused", code, message, charged: false };
}

function notCharged(code: string, status: number | null, message: string) {
  return { type: "not_charged" as const, code, status, message, charged: false as const };
}

function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function usdc(amount: bigint): string {
  const whole = amount / 1_000_000n;
  const fraction = (amount % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = ErrorBodySchema.safeParse(await response.json().catch(() => null));
  return body.success
    ? body.data.error
    : { code: `http_${response.status}`, message: `HTTP ${response.status}` };
}

// Only these answers prove the payment was not settled: a 402 refusing the payment before
// settlement (no PAYMENT-RESPONSE; one with it is settlementFailure's to read), the server's own
// 4xx error (a 409 aside), a 503 that says nothing was charged. Anything else (a 5xx, a proxy's
// page, a redirect) may follow a settlement.
async function provesNoCharge(answer: Response): Promise<boolean> {
  if (answer.status === 402) return answer.headers.get("payment-response") === null;
  // authorization_in_flight / authorization_used: the same authorization may have paid already.
  // A payment id refusal turns this (fresh) authorization away before verifying it.
  if (answer.status === 409) return paymentIdRefusals.has((await errorCode(answer)) ?? "");
  if (answer.status < 400 || answer.status >= 600) return false;
  const body = ErrorBodySchema.safeParse(
    await answer
      .clone()
      .json()
      .catch(() => null),
  );
  if (!body.success) return false;
  if (answer.status === 503) return notChargedUnavailable.has(body.data.error.code);
  return answer.status < 500;
}

/** The JSON error contract's code of an answer, if it has one. */
async function errorCode(answer: Response): Promise<string | null> {
  if (answer.status < 400) return null;
  const body = ErrorBodySchema.safeParse(
    await answer
      .clone()
      .json()
      .catch(() => null),
  );
  return body.success ? body.data.error.code : null;
}

function readSettlement(answer: Response, requirement: PaymentRequirements): Settlement | null {
  const header = answer.headers.get("payment-response");
  if (header === null) return null;
  try {
    const settled = new x402HTTPClient(new x402Client()).getPaymentSettleResponse((name) =>
      answer.headers.get(name),
    );
    if (!settled.success || !isHash(settled.transaction ?? "")) return null;
    if (!settled.payer) return null;
    return {
      transaction: settled.transaction as Hex,
      network: settled.network,
      payer: settled.payer as Address,
      amount: requirement.amount,
      payTo: requirement.payTo as Address,
    };
  } catch {
    return null;
  }
}

/** Failure reasons that leave a transfer that was sent and may still be mined. */
const openSettlementReasons = new Set(["settlement_pending", "settlement_unknown"]);

/**
 * The reason of a 402 whose PAYMENT-RESPONSE (read by the official x402 helper) says the server
 * tried to settle and failed before sending anything: success false, no transaction, and not a
 * reason that leaves a transfer in flight. Null for every other answer, whose charge stays open.
 */
function settlementFailure(answer: Response): string | null {
  if (answer.status !== 402 || answer.headers.get("payment-response") === null) return null;
  try {
    const settled: unknown = new x402HTTPClient(new x402Client()).getPaymentSettleResponse((name) =>
      answer.headers.get(name),
    );
    const failed = SettleFailureSchema.safeParse(settled);
    if (!failed.success) return null;
    const reason = failed.data.errorReason ?? "";
    if (openSettlementReasons.has(reason)) return null;
    // Shown to the payer: a short code only, never free text from upstream.
    return /^[A-Za-z0-9_.:-]{1,64}$/.test(reason) ? reason : "no reason code";
  } catch {
    return null;
  }
}

function sentAuthorization(
  payload: PaymentPayload,
  payer: PresendSigner,
  requirement: PaymentRequirements,
): SentAuthorization {
  const inner = payload.payload as { authorization?: { nonce?: string } };
  return {
    payer: payer.address,
    nonce: (inner.authorization?.nonce ?? "0x") as Hex,
    amount: requirement.amount,
    payTo: requirement.payTo as Address,
  };
}

// The offer signed with the attestation key must name exactly what is about to be paid.
async function verifyOffer(
  paymentRequired: PaymentRequired,
  requirement: PaymentRequirements,
  key: PinRecord["jwk"],
  now: Date,
): Promise<string | null> {
  const offers = extractOffersFromPaymentRequired(paymentRequired).filter(isJWSSignedOffer);
  if (offers.length === 0) return "The payment challenge carries no signed offer.";
  for (const offer of offers) {
    try {
      const terms = await verifyOfferSignatureJWS(offer, key);
      if (
        terms.scheme === requirement.scheme &&
        terms.network === requirement.network &&
        terms.asset.toLowerCase() === requirement.asset.toLowerCase() &&
        terms.payTo.toLowerCase() === requirement.payTo.toLowerCase() &&
        terms.amount === requirement.amount &&
        (terms.validUntil === undefined || terms.validUntil * 1000 >= now.getTime() - 60_000)
      ) {
        return null;
      }
    } catch {
      // Tried against the next offer; none verifying is the refusal below.
    }
  }
  return "No signed offer in the challenge verifies with the attestation key for these payment terms.";
}

// The offer-receipt receipt in PAYMENT-RESPONSE, signed with the attestation key, for this settlement.
async function verifyReceipt(
  answer: Response,
  settlement: Settlement,
  pin: PinRecord,
): Promise<"verified" | string> {
  const receipt = extractReceiptFromResponse(answer);
  if (receipt === undefined || !isJWSSignedReceipt(receipt)) {
    return "The payment response carries no signed receipt.";
  }
  try {
    const terms = await verifyReceiptSignatureJWS(receipt, pin.jwk);
    if (
      terms.payer.toLowerCase() !== settlement.payer.toLowerCase() ||
      terms.network !== settlement.network ||
      (terms.transaction ?? "").toLowerCase() !== settlement.transaction.toLowerCase()
    ) {
      return "The signed receipt names another payment than the settlement.";
    }
    return "verified";
  } catch {
    return "The receipt's signature does not verify with the pinned attestation key.";
  }
}
