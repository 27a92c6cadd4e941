import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { FacilitatorClient } from "@x402/core/server";
import type { SettleResponse, VerifyResponse } from "@x402/core/types";
import { type Hex, isHash } from "viem";
import { cachedProbe } from "../../health/cachedProbe";
import type { PaymentRecordStore } from "../../paymentRecords/paymentRecordStore";
import { authorizationOf } from "../intake/authorizationOf";
import { authorizationLookBackSeconds, type PaymentChain } from "../facilitator/createPaymentChain";

/** The refusal reason when the payment chain cannot be read: nothing can be verified or charged. */
export const paymentNetworkUnavailable = "payment_network_unavailable";
/** The settlement reason when it is not known whether the transfer happened. */
export const settlementUnknown = "settlement_unknown";
/** The settlement reason when the payer cancelled the authorization: nothing was charged. */
export const authorizationCanceled = "authorization_canceled";

/** How long one reading of "the payment chain answers and is Base" is trusted. */
const chainCheckMs = 2_000;

export type WithPaymentRecordsOptions = {
  records: PaymentRecordStore;
  chain: PaymentChain;
  /**
   * The in-process facilitator knows what it broadcast (null: nothing, so nothing can be
   * charged); a remote one does not (leave undefined).
   */
  broadcastFor?: (payer: string, nonce: string) => Hex | null;
  onError?: (error: unknown) => void;
};

/**
 * Wraps a facilitator so that every settlement ends in the payment record, told by the chain
 * when the facilitator's own answer is lost or wrong: a failure whose authorization the chain
 * shows used becomes the success it was (with its transaction); one that cannot be decided is
 * recorded `unknown` and answered `settlement_unknown`; only a proven non-charge is `failed`
 * (nothing sent, a reverted transfer, or an authorization the payer cancelled).
 * Verification that fails while the payment chain is down is answered
 * `payment_network_unavailable` instead of a misleading signature error. No errorMessage (raw
 * upstream text) leaves this wrapper.
 * @example new x402ResourceServer(withPaymentRecords(facilitator, { records, chain }))
 */
export function withPaymentRecords(
  inner: FacilitatorClient,
  options: WithPaymentRecordsOptions,
): FacilitatorClient {
  const { records, chain } = options;
  const onError =
    options.onError ?? ((error) => console.error("presend: payment record", String(error)));
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
    // A payment chain that is down or is not Base cannot take payments: say so, verify nothing.
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
    if (result === null) return { isValid: false, invalidReason: "verification_failed" };
    return withoutMessage(result);
  };

  const settle = async (
    ...args: Parameters<FacilitatorClient["settle"]>
  ): Promise<SettleResponse> => {
    const [payload, requirements] = args;
    const authorization = authorizationOf(payload);
    let result: SettleResponse | null = null;
    try {
      result = await inner.settle(...args);
    } catch {
      result = null;
    }
    if (authorization === null) {
      // Not an EIP-3009 payment (a channel's deposit, claim, settle or refund): no record here.
      return result
        ? withoutMessage(result)
        : {
            success: false,
            errorReason: "settlement_failed",
            transaction: "",
            network: requirements.network,
          };
    }
    const key = { payer: authorization.payer, nonce: authorization.nonce };
    const network = requirements.network;
    const base = { network, payer: authorization.payer };
    function failure(reason: string, transaction = ""): SettleResponse {
      return { success: false, errorReason: reason, transaction, network, payer: key.payer };
    }
    const record = async (run: () => Promise<unknown>) => {
      try {
        await run();
      } catch (error) {
        onError(error);
      }
    };

    if (result?.success && result.transaction) {
      await record(() => records.markSettled(key, result.transaction));
      return withoutMessage(result);
    }
    const broadcast = options.broadcastFor?.(key.payer, key.nonce);
    const candidate = isTx(result?.transaction)
      ? (result?.transaction as Hex)
      : (broadcast ?? null);
    let used: boolean | null = null;
    try {
      used = await chain.authorizationUsed(key.payer, key.nonce);
    } catch {
      used = null;
    }
    if (used) {
      const validBefore = Number(authorization.validBefore);
      const tx = await settlementOf(chain, key, candidate, validBefore);
      if (tx !== null) {
        await record(() => records.markSettled(key, tx));
        return { success: true, transaction: tx, ...base, amount: authorization.value.toString() };
      }
      // Used without a transfer: the payer cancelled it (cancelAuthorization); it never can pay.
      const since = validBefore - authorizationLookBackSeconds;
      if (await chain.authorizationCanceled(key.payer, key.nonce, since).catch(() => false)) {
        await record(() => records.markFailed(key));
        return failure(authorizationCanceled);
      }
      await record(() => records.markUnknown(key, candidate));
      return failure(settlementUnknown, candidate ?? "");
    }
    // Nothing was broadcast (the in-process facilitator knows), or the facilitator answered a
    // refusal before sending anything: no charge is possible.
    const neverSent =
      broadcast === null || (options.broadcastFor === undefined && result !== null && !candidate);
    if (neverSent) {
      await record(() => records.markFailed(key));
      return result ? withoutMessage(result) : failure("settlement_failed");
    }
    if (used === false && candidate !== null) {
      // A mined transaction that reverted used the facilitator's nonce without the transfer.
      const status = await chain.receiptStatus(candidate).catch(() => null);
      if (status === "reverted") {
        await record(() => records.markFailed(key));
        return result ? withoutMessage(result) : failure("settlement_failed", candidate);
      }
    }
    await record(() => records.markUnknown(key, candidate));
    return failure(settlementUnknown, candidate ?? "");
  };

  return { verify, settle, getSupported: () => inner.getSupported() };
}

/**
 * The transaction that used an authorization the chain shows used: the candidate when its
 * receipt says so, else the AuthorizationUsed event's; null when neither can be read.
 */
export async function settlementOf(
  chain: PaymentChain,
  key: { payer: string; nonce: string },
  candidate: Hex | null,
  validBefore: number,
): Promise<Hex | null> {
  if (candidate !== null) {
    const status = await chain.receiptStatus(candidate).catch(() => null);
    if (status === "success") return candidate;
  }
  const since = validBefore - authorizationLookBackSeconds;
  return chain.findAuthorizationTx(key.payer, key.nonce, since).catch(() => null);
}

function isTx(value: unknown): value is Hex {
  return typeof value === "string" && isHash(value);
}

/** Drops the facilitator's free text: it can carry RPC URLs, raw transactions and stack text. */
function withoutMessage<T extends { errorMessage?: string; invalidMessage?: string }>(
  result: T,
): T {
  const { errorMessage: _error, invalidMessage: _invalid, ...rest } = result;
  return rest as T;
}
