import {
  reportSignatureHeader,
  SignedSettlementSchema,
} from "@presend/shared/attestation/reportSigningInput";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { chargedReportKept } from "../resourceServer/paymentLedger";
import type { ReportSigner } from "./createReportSigner";

export type SignedReportOptions = {
  sign: ReportSigner;
  /** Public base URL (no trailing slash), for the receipt location. */
  publicUrl: string;
  /** Where a signature that could not be made is reported (the server's log). */
  onError: (error: unknown) => void;
};

/**
 * Adds the detached signature over the report and its settlement to every paid 200. Runs
 * outside the official middleware, which settles after the handler: once it returns, the
 * PAYMENT-RESPONSE it set names the settlement the signature binds. The payer was charged by
 * then: a signature that cannot be made turns the answer into the 502 that says so and where the
 * report is kept (`/receipts` signs it when asked), never into an error that escapes as a 500.
 * @example createRoute({ middleware: [guard, paymentIntake(), signedReport({ sign, publicUrl, onError }), ledger, envelope, x402] })
 */
export function signedReport(options: SignedReportOptions): MiddlewareHandler<AppEnv> {
  const { onError } = options;
  return async function signedReport(c, next) {
    await next();
    const header = c.res.headers.get("payment-response");
    // A channel payment's report is signed by its ledger (it binds the record, not a transaction).
    if (c.res.status !== 200 || header === null || c.res.headers.has(reportSignatureHeader)) return;
    let decoded: ReturnType<typeof decodePaymentResponseHeader>;
    try {
      decoded = decodePaymentResponseHeader(header);
    } catch {
      return;
    }
    const settlement = SignedSettlementSchema.safeParse(decoded);
    if (!decoded.success || !settlement.success) return;
    try {
      const report: unknown = await c.res.clone().json();
      c.res.headers.set(reportSignatureHeader, await options.sign(report, settlement.data));
    } catch (error) {
      onError(error);
      const authorization = c.get("authorization");
      c.res = undefined;
      c.res = chargedReportKept(
        c,
        authorization
          ? { payer: authorization.payer, nonce: authorization.nonce }
          : { transaction: settlement.data.transaction },
        { publicUrl: options.publicUrl, settlement: header },
      );
    }
  };
}
