import { randomBytes } from "node:crypto";
import { channelReceiptNonce } from "@presend/shared/api/channelReceiptNonce";
import {
  reportSignatureHeader,
  type SignedSettlement,
} from "@presend/shared/attestation/reportSigningInput";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import { holdLease } from "../../paymentRecords/holdLease";
import type { InFlightLock } from "../../paymentRecords/inFlightLock";
import type { ReportSigner } from "../attestation/createReportSigner";
import type { AuthorizationKey, PaymentRecords } from "../records/paymentRecords";
import {
  authorizationReceiptPath,
  chargedReportKept,
  leaseTtlMs,
  receiptLocationHeader,
} from "../resourceServer/paymentLedger";
import type { ChannelStore } from "./channelStore";

/**
 * A channel payment's record has no expiry of its own: it is decided by the claim that covers
 * its voucher (reconcileChannelCharges), never by time, so the reconciler of `exact` payments
 * leaves it alone.
 */
export const channelRecordValidBefore = 253_402_300_799;

export type ChannelLedgerOptions = {
  /** The payment records' one owner (the handler begins a channel payment's record through it). */
  records: Pick<PaymentRecords, "byAuthorization" | "markFailed">;
  store: ChannelStore;
  /** One run per channel payment record, across replicas. */
  lock: InFlightLock;
  payTo: string;
  network: string;
  /**
   * Signs the report. A voucher has no transaction of its own, so the signature binds the
   * record's nonce in its place (channelReceiptNonce).
   */
  signReport: ReportSigner;
  /** Public base URL (no trailing slash), for the receipt location. */
  publicUrl: string;
  /** Where a lock, store or record fault is reported (the server's log). */
  onError: (error: unknown) => void;
};

/**
 * Around the x402 middleware of a paid route, for payments over a batch-settlement channel (a
 * deposit or a voucher, as paymentIntake read it into the context; `exact` payments pass through
 * untouched). The scheme itself makes one voucher buy one run (the channel is reserved while a
 * request runs, a replayed or stale voucher is refused before the engine runs); this writes the
 * books, through the payment records like every payment. The payment's record is keyed by
 * the channel's payer and channelReceiptNonce(channel, ceiling, payment id), which the payer can
 * compute too; a record already there is answered 409 with its receipt location, a lease keeps
 * two requests of one record from running at once. The charge is indexed in the channel store
 * before anything runs, the handler begins the record as for `exact`, the charge is committed
 * once the scheme charged the channel (the answer is the report, signed over the record's
 * nonce) and dropped, its record `failed`, otherwise. The claim that covers it settles it.
 * @example createRoute({ middleware: [guard, paymentIntake(), signed, paymentLedger(opts), channelLedger(opts), envelope, x402] })
 */
export function channelLedger(options: ChannelLedgerOptions): MiddlewareHandler<AppEnv> {
  const { records, store, onError } = options;
  const unavailable = (c: Context<AppEnv>) =>
    jsonError(
      c,
      503,
      "payment_record_unavailable",
      "The payment could not be registered before paying, so it was not taken. Nothing was charged; try again shortly.",
    );
  return async function channelLedger(c, next) {
    const intake = c.get("channelPayment");
    if (intake === undefined) return next();
    const payment = intake.channel;
    const paymentId = intake.paymentId ?? `server_${randomBytes(16).toString("hex")}`;
    const key = {
      payer: payment.payer.toLowerCase(),
      nonce: channelReceiptNonce(payment.channelId, payment.cumulative, paymentId),
    };
    const location = `${options.publicUrl}${authorizationReceiptPath(key.payer, key.nonce)}`;
    let lease: Awaited<ReturnType<typeof holdLease>>;
    try {
      lease = await holdLease(
        options.lock,
        `channel:${key.payer}:${key.nonce}`,
        leaseTtlMs,
        onError,
      );
    } catch (error) {
      onError(error);
      return unavailable(c);
    }
    if (lease === null) {
      return jsonError(
        c,
        409,
        "authorization_in_flight",
        "This channel payment is being served by another request right now; nothing more is charged for this one.",
      );
    }
    try {
      const existing = await records.byAuthorization(key);
      if (existing !== undefined) {
        const answer = jsonError(
          c,
          409,
          "authorization_used",
          `This channel payment (voucher and payment id) was already used. Its report, if it was charged: GET ${location}?signature=<EIP-191 signature by the payer over "presend receipt ${key.nonce}">. Send a new payment id for another check.`,
        );
        answer.headers.set(receiptLocationHeader, location);
        return answer;
      }
      // Indexed before anything runs: a claim can always find the record of what it covers.
      await store.addCharge({ key, channelId: payment.channelId, cumulative: payment.cumulative });
    } catch (error) {
      await lease.release();
      onError(error);
      return unavailable(c);
    }
    try {
      c.set("authorization", {
        payer: key.payer,
        nonce: key.nonce,
        payTo: options.payTo,
        value: payment.cumulative,
        validAfter: 0n,
        validBefore: BigInt(channelRecordValidBefore),
      });
      await next();
      const charged = c.res.status === 200 && settled(c.res.headers.get("payment-response"));
      if (charged) {
        await store.commitCharge(key).catch(onError);
        try {
          // The handler started it beside the record's write (the report is the body answered).
          const signature = await (c.get("channelReportSignature") ??
            options.signReport(
              await c.res.clone().json(),
              channelSettlement(key, options.network),
            ));
          c.res.headers.set(reportSignatureHeader, signature);
          c.res.headers.set(receiptLocationHeader, location);
        } catch (error) {
          // Charged: the payer hears so and where the report is kept, never a 500. The channel's
          // state in PAYMENT-RESPONSE goes with it, so the payer's next voucher follows this one.
          onError(error);
          const settlement = c.res.headers.get("payment-response");
          c.res = undefined;
          c.res = chargedReportKept(c, key, {
            publicUrl: options.publicUrl,
            settlement,
            awaitingClaim: true,
          });
        }
        return;
      }
      try {
        await store.dropCharge(key);
        if (await records.byAuthorization(key)) await records.markFailed(key);
      } catch (error) {
        // The answer stands; a claim never reaches an uncharged ceiling through this attempt.
        onError(error);
      }
    } finally {
      await lease.release();
    }
  };
}

/**
 * What a channel payment's report signature binds in place of a transaction: the record's own
 * nonce (channelReceiptNonce), which the payer computes too, and its payer.
 */
export function channelSettlement(key: AuthorizationKey, network: string): SignedSettlement {
  return { transaction: key.nonce, network, payer: key.payer };
}

function settled(header: string | null): boolean {
  if (header === null) return false;
  try {
    return decodePaymentResponseHeader(header).success === true;
  } catch {
    return false;
  }
}
