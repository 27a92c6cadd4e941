import type { DeepReport, Report } from "@presend/shared/api/report";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { errorOf } from "../answers/errorOf";
import { readPaidReport } from "../answers/readPaidReport";
import { readSettlement } from "../answers/readSettlement";
import { type AskedSubject, reportSubjectMismatch } from "../answers/reportSubjectMismatch";
import type { PresendConfig } from "../createPresendConfig";
import { notCharged } from "../outcomes";
import type { PinRecord } from "../PinStore";
import type { PaidOutcome } from "../PresendResult";
import { baseNetwork } from "../policy/checkRequirement";

/**
 * The report this wallet already paid for, asked for again signed in (no payment sent): null
 * unless the server answers it with a settlement of this payer, a report signature and a
 * receipt that all verify with the pinned key, for the address, chain and sender asked, so
 * anything else goes on to the usual payment. The server's re-read window knows the route,
 * address and chain, not the sender: a check with `from` after the same one without it (or
 * with another) is offered a report without that sender's payments, which must not pass for it.
 * One answer is not "go on and pay": 503 `signature_unverifiable` (the wallet is a smart account
 * and the server could not read Base to check its sign-in). The report may well be this wallet's
 * to read again, so paying now could charge it twice for it: the check ends "not charged" (nothing
 * was sent to pay with), asking to try again shortly.
 * @example const again = await signedInReread<Report>(config, { route, asked, paymentRequired, requirement, pin, post });
 */
export async function signedInReread<R extends Report | DeepReport>(
  config: PresendConfig,
  request: {
    route: "/check" | "/deep";
    /** What the check asks about: a report re-read for another is not this check's. */
    asked: AskedSubject;
    paymentRequired: PaymentRequired;
    requirement: PaymentRequirements;
    pin: PinRecord;
    post(headers: Record<string, string>): Promise<Response>;
  },
): Promise<PaidOutcome<R> | null> {
  try {
    const payer = await config.signer();
    if (payer === null) return null;
    // Loaded only by callers that sign in: the extension's bundle does not carry it.
    const { signInHeader, signInHeaderName } = await import("../signInHeader");
    const header = await signInHeader(
      request.paymentRequired,
      baseNetwork,
      payer,
      `${config.base}${request.route}`,
    );
    if (header === null) return null;
    const answer = await request.post({ [signInHeaderName]: header });
    if (answer.status === 503) {
      const error = await errorOf(answer);
      if (error.code === "signature_unverifiable") {
        const wait = Number.parseInt(answer.headers.get("retry-after") ?? "", 10);
        return notCharged(
          error.code,
          503,
          `presend could not check this wallet's sign-in just now (Base did not answer the smart account's signature check), so it was neither taken nor refused. Nothing was charged, and nothing was paid so that a report this wallet already paid for is not paid twice: try again ${Number.isFinite(wait) ? `in ${wait} s` : "shortly"}.`,
        );
      }
    }
    const settlement = readSettlement(answer, request.requirement);
    if (answer.status !== 200 || settlement === null) return null;
    if (settlement.payer.toLowerCase() !== payer.address.toLowerCase()) return null;
    const read = await readPaidReport<R>(config, answer, settlement, request.pin, request.route);
    if (read.type !== "report") return null;
    if (reportSubjectMismatch(read.report, request.asked) !== null) return null;
    return { ...read, recovered: true, signedIn: true };
  } catch {
    return null;
  }
}
