import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { FacilitatorClient } from "@x402/core/server";
import type { SettleResponse, VerifyResponse } from "@x402/core/types";
import { cachedProbe } from "../../health/cachedProbe";
import type { PaymentChain } from "./createPaymentChain";

/** The refusal reason when the payment chain cannot be read: nothing can be verified or charged. */
export const paymentNetworkUnavailable = "payment_network_unavailable";
/**
 * The refusal reason when the facilitator gave no answer to a verification (down, hung past its
 * deadline, or an answer that did not parse) while the payment chain answers: nothing verified,
 * nothing charged.
 */
export const facilitatorUnavailable = "facilitator_unavailable";
/**
 * The settlement reason when the facilitator gave no answer (it threw, timed out, or its answer
 * did not parse): whether the transfer happened is for the chain to say.
 */
export const settlementUnanswered = "settlement_unanswered";

/** How long one reading of "the payment chain answers and is Base" is trusted. */
const chainCheckMs = 2_000;

/**
 * What presend takes from a facilitator, in process or remote: answers, never exceptions or
 * upstream text. Verification is refused with `payment_network_unavailable` while the payment
 * chain is down or is not Base (instead of a misleading signature error), and with
 * `facilitator_unavailable` when the facilitator gives no answer; a settlement that
 * throws is the failure `settlement_unanswered`, which the settlement step
 * (`settlement/recordSettlements`) decides from the chain. errorMessage and invalidMessage (RPC
 * URLs, raw transactions, stack text) are dropped. Records are not this layer's business.
 * @example new x402ResourceServer(guardedFacilitator(facilitator, { chain }))
 */
export function guardedFacilitator(
  inner: FacilitatorClient,
  options: { chain: PaymentChain },
): FacilitatorClient {
  const { chain } = options;
  // A good reading is shared for a moment; a bad one is not kept (cachedProbe drops failures).
  const usableReading = cachedProbe(async () => {
    if (!(await chain.reachable()))
      throw new UpstreamError("payment chain unusable", { code: "payment_chain_unusable" });
    return true;
  }, chainCheckMs);
  const chainUsable = () => usableReading().catch(() => false);

  const verify = async (
    ...args: Parameters<FacilitatorClient["verify"]>
  ): Promise<VerifyResponse> => {
    if (!(await chainUsable())) return { isValid: false, invalidReason: paymentNetworkUnavailable };
    let result: VerifyResponse | null = null;
    try {
      result = await inner.verify(...args);
    } catch {
      result = null;
    }
    if (result?.isValid) return withoutMessage(result);
    if (!(await chain.reachable())) {
      return {
        isValid: false,
        invalidReason: paymentNetworkUnavailable,
        ...(result?.payer ? { payer: result.payer } : {}),
      };
    }
    if (result === null) return { isValid: false, invalidReason: facilitatorUnavailable };
    return withoutMessage(result);
  };

  const settle = async (
    ...args: Parameters<FacilitatorClient["settle"]>
  ): Promise<SettleResponse> => {
    try {
      return withoutMessage(await inner.settle(...args));
    } catch {
      return {
        success: false,
        errorReason: settlementUnanswered,
        transaction: "",
        network: args[1].network,
      };
    }
  };

  return { verify, settle, getSupported: () => inner.getSupported() };
}

/** Drops the facilitator's free text: it can carry RPC URLs, raw transactions and stack text. */
function withoutMessage<T extends { errorMessage?: string; invalidMessage?: string }>(
  result: T,
): T {
  const { errorMessage: _error, invalidMessage: _invalid, ...rest } = result;
  return rest as T;
}
