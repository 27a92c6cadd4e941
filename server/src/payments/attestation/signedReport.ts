import {
  reportSignatureHeader,
  SignedSettlementSchema,
} from "@presend/shared/attestation/reportSigningInput";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { MiddlewareHandler } from "hono";
import type { ReportSigner } from "./createReportSigner";

/**
 * Adds the detached signature over the report and its settlement to every paid 200. Runs
 * outside the official middleware, which settles after the handler: once it returns, the
 * PAYMENT-RESPONSE it set names the settlement the signature binds.
 * @example createRoute({ middleware: [guard, paymentIntake(), signedReport(signer), ledger, envelope, x402] })
 */
export function signedReport(sign: ReportSigner): MiddlewareHandler {
  return async function signedReport(c, next) {
    await next();
    const header = c.res.headers.get("payment-response");
    // A channel payment's report is signed by its ledger (it binds the record, not a transaction).
    if (c.res.status !== 200 || header === null || c.res.headers.has(reportSignatureHeader)) return;
    const decoded = decodePaymentResponseHeader(header);
    const settlement = SignedSettlementSchema.safeParse(decoded);
    if (!decoded.success || !settlement.success) return;
    const report: unknown = await c.res.clone().json();
    c.res.headers.set(reportSignatureHeader, await sign(report, settlement.data));
  };
}
