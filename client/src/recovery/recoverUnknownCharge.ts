import { receiptMessage } from "@presend/shared/api/receiptMessage";
import type { DeepReport, Report } from "@presend/shared/api/report";
import type { PaymentRequirements } from "@x402/core/types";
import type { PresendConfig, PresendSigner } from "../createPresendConfig";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome, SentAuthorization, Settlement } from "../PresendResult";
import { receiptPath } from "./fetchStoredReceipt";
import { recoverReport } from "./recoverReport";

/**
 * After an answer that leaves the charge open (or charged with no readable report): the report
 * fetched again by settlement transaction when one is known, else by payer and nonce; failing
 * that, "unrecovered" with the charge as known (yes with a settlement, else unknown) and the
 * request that fetches the report later.
 * @example return recoverUnknownCharge(config, { what, settlement: null, authorization, pin, payer, route, requirement });
 */
export async function recoverUnknownCharge<R extends Report | DeepReport>(
  config: PresendConfig,
  charge: {
    /** What happened, said first in the message. */
    what: string;
    settlement: Settlement | null;
    authorization: SentAuthorization;
    pin: PinRecord;
    payer: PresendSigner;
    route: "/check" | "/deep";
    requirement: PaymentRequirements;
  },
): Promise<PaidOutcome<R>> {
  const { settlement, authorization } = charge;
  const by = settlement !== null ? { transaction: settlement.transaction } : { authorization };
  const recovered = await recoverReport<R>(config, by, charge.pin, charge.payer, charge.route);
  if (recovered !== null) return recovered;
  const proof = (id: string) =>
    `?signature=<the payer's EIP-191 signature of "${receiptMessage(id)}">`;
  return {
    type: "unrecovered",
    charged: settlement !== null ? true : "unknown",
    settlement,
    authorization,
    message: `${charge.what} Charged: ${settlement !== null ? `yes, settlement ${settlement.transaction}` : "unknown"}.`,
    recover:
      settlement !== null
        ? `GET ${config.base}${receiptPath(by)}${proof(settlement.transaction)}`
        : `GET ${config.base}${receiptPath(by)}${proof(authorization.nonce)}; if the payment settled it answers the report (an authorization cannot settle after ${charge.requirement.maxTimeoutSeconds} s).`,
  };
}
