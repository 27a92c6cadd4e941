import { randomBytes } from "node:crypto";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { MiddlewareHandler } from "hono";
import { bytesToHex } from "viem";
import type { AppEnv } from "../../http/appEnv";
import type { PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import type { ReportSigner } from "../attestation/createReportSigner";
import { authorizationReceiptPath, receiptLocationHeader } from "../resourceServer/paymentLedger";
import { channelRecordNonce } from "./channelPaymentOf";
import type { ChannelStore } from "./channelStore";
import { readChannelPaymentHeader } from "./readChannelPaymentHeader";

/**
 * A channel payment's record has no expiry of its own: it is decided by the claim that covers
 * its voucher (createChannels), never by time, so the reconciler of `exact` payments leaves it.
 */
export const channelRecordValidBefore = 253_402_300_799;

export type ChannelLedgerOptions = {
  records: PaymentRecordStore;
  store: ChannelStore;
  payTo: string;
  network: string;
  /**
   * Signs the report. A voucher has no transaction of its own, so the signature binds the
   * record's nonce in its place (the one the receipt location names).
   */
  signReport: ReportSigner;
  /** Public base URL (no trailing slash), for the receipt location. */
  publicUrl: string;
  onError?: (error: unknown) => void;
};

/**
 * Around the x402 middleware of a paid route, for payments over a batch-settlement channel (a
 * deposit or a voucher; `exact` payments pass through untouched). The scheme itself makes one
 * voucher buy one run (the channel is reserved while the request runs, a replayed or stale
 * voucher is refused before the engine runs), so this only writes the books: the attempt's
 * payment record is begun by the handler as for `exact` (the nonce names the voucher and the
 * attempt: channelRecordNonce), indexed in the channel store first, committed there once the
 * scheme charged the channel (the answer is the report), and `failed` otherwise. The record is
 * settled by the claim that covers it. PRESEND-RECEIPT names where the report can be fetched;
 * PRESEND-REPORT-SIGNATURE binds the report to that record's nonce (a voucher has no transaction).
 * @example createRoute({ middleware: [guard, signed, paymentLedger(opts), channelLedger(opts), envelope, x402] })
 */
export function channelLedger(options: ChannelLedgerOptions): MiddlewareHandler<AppEnv> {
  const { records, store } = options;
  const onError =
    options.onError ??
    ((error: unknown) => console.error("presend: channel ledger", String(error)));
  return async function channelLedger(c, next) {
    const header = c.req.header("payment-signature") ?? c.req.header("x-payment");
    const payment = readChannelPaymentHeader(header);
    if (payment === null) return next();
    const key = {
      payer: payment.payer,
      nonce: channelRecordNonce(payment, bytesToHex(randomBytes(32))),
    };
    // Indexed before anything runs: a claim can always find the record of what it covers.
    try {
      await store.addCharge({ key, channelId: payment.channelId, cumulative: payment.cumulative });
    } catch (error) {
      onError(error);
      return c.json(
        {
          error: {
            code: "payment_record_unavailable",
            message:
              "The payment could not be registered before paying, so it was not taken. Nothing was charged; try again shortly.",
          },
        },
        503,
      );
    }
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
    try {
      if (charged) {
        await store.commitCharge(key);
        const report: unknown = await c.res.clone().json();
        const signature = await options.signReport(report, {
          transaction: key.nonce,
          network: options.network,
          payer: key.payer.toLowerCase(),
        });
        c.res.headers.set(reportSignatureHeader, signature);
        c.res.headers.set(
          receiptLocationHeader,
          `${options.publicUrl}${authorizationReceiptPath(key.payer, key.nonce)}`,
        );
        return;
      }
      await store.dropCharge(key);
      if (await records.byAuthorization(key)) await records.markFailed(key);
    } catch (error) {
      // The answer stands; the claim that covers the voucher settles its record either way.
      onError(error);
    }
  };
}

function settled(header: string | null): boolean {
  if (header === null) return false;
  try {
    return decodePaymentResponseHeader(header).success === true;
  } catch {
    return false;
  }
}
