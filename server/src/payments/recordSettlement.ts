import { decodePaymentResponseHeader } from "@x402/core/http";
import type { MiddlewareHandler } from "hono";
import type { ReceiptStore } from "../receipts/openReceiptStore";
import type { PaidRoute } from "./paidRoutes";

export type RecordSettlementOptions = {
  route: PaidRoute;
  receipts: ReceiptStore;
  payTo: string;
  amount: string;
  /** Where a failed write is reported; the payer still gets the report they paid for. */
  onError?: (error: unknown) => void;
};

/**
 * Records every settled payment with the exact report it bought, before the response leaves:
 * the official middleware settles after the handler, so this runs once it returns, reads the
 * PAYMENT-RESPONSE it set and writes the receipt synchronously.
 * @example createRoute({ middleware: [guard, recordSettlement(opts), envelope, x402] })
 */
export function recordSettlement(options: RecordSettlementOptions): MiddlewareHandler {
  const onError =
    options.onError ?? ((error) => console.error("presend: receipt not recorded", error));
  return async function recordSettlement(c, next) {
    await next();
    const header = c.res.headers.get("payment-response");
    if (c.res.status !== 200 || header === null) return;
    try {
      const settlement = decodePaymentResponseHeader(header);
      if (!settlement.success || !settlement.transaction || !settlement.payer) return;
      options.receipts.record({
        tx: settlement.transaction.toLowerCase(),
        network: settlement.network,
        payer: settlement.payer,
        payTo: options.payTo,
        route: options.route.path,
        amount: settlement.amount ?? options.amount,
        report: await c.res.clone().json(),
        createdAt: new Date().toISOString(),
      });
    } catch (error) {
      onError(error);
    }
  };
}
