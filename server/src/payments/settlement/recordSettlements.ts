import type {
  SettleContext,
  SettleFailureContext,
  SettleResultContext,
  x402ResourceServer,
} from "@x402/core/server";
import type { SettleResponse } from "@x402/core/types";
import { SettleError } from "@x402/core/types";
import { type Hex, isHash } from "viem";
import { authorizationLookBackSeconds, type PaymentChain } from "../facilitator/createPaymentChain";
import { settlementUnanswered } from "../facilitator/guardedFacilitator";
import { authorizationOf, type PaidAuthorization } from "../intake/authorizationOf";
import type { PaymentRecords } from "../records/paymentRecords";
import { settlementOf } from "../records/reconcilePayments";

/** The settlement reason when it is not known whether the transfer happened. */
export const settlementUnknown = "settlement_unknown";
/** The settlement reason when the payer cancelled the authorization: nothing was charged. */
export const authorizationCanceled = "authorization_canceled";

export type RecordSettlementsOptions = {
  records: PaymentRecords;
  chain: PaymentChain;
  /**
   * The in-process facilitator knows what it broadcast (null: nothing, so nothing can be
   * charged; undefined: it does not know the authorization, which proves nothing); a remote one
   * does not (leave undefined).
   */
  broadcastFor?: (payer: string, nonce: string) => Hex | null | undefined;
  /** Where a record that could not be read or written is reported (the server's log). */
  onError: (error: unknown) => void;
};

/**
 * The settlement step's bookkeeping, on x402's own settle hooks of the resource server: every
 * settlement of an EIP-3009 payment starts from its `pending` record (onBeforeSettle refuses one
 * without) and ends in it. A transaction the facilitator answered is
 * `settled` (onAfterSettle). A failure (onSettleFailure) is decided from the chain: an
 * authorization Base shows used is `settled` with the transaction that used it, and the paid
 * route's ledger answers the report from the record; one that cannot be decided is `unknown` and
 * answered `settlement_unknown`; only a proven non-charge is `failed` (nothing sent, a reverted
 * transfer, or an authorization the payer cancelled). A success that names no transaction is
 * decided the same way. Channel payments (no EIP-3009 authorization) are the channel ledger's.
 * @example recordSettlements(resourceServer, { records, chain, broadcastFor, onError });
 */
export function recordSettlements(
  resourceServer: x402ResourceServer,
  options: RecordSettlementsOptions,
): void {
  const { records, chain, onError } = options;
  /** A record write that fails costs the bookkeeping (the reconciler decides it), not the answer. */
  const write = async (run: () => Promise<unknown>) => {
    try {
      await run();
    } catch (error) {
      onError(error);
    }
  };

  // Nothing is settled unrecorded: the handler begins the record before it returns, and a
  // settlement whose record is not there (or cannot be read) is refused before it is sent.
  resourceServer.onBeforeSettle(async (context: SettleContext) => {
    const authorization = authorizationOf(context.paymentPayload);
    if (authorization === null) return;
    const key = { payer: authorization.payer, nonce: authorization.nonce };
    const record = await records.byAuthorization(key).catch((error: unknown) => {
      onError(error);
      return undefined;
    });
    if (record?.status === "pending") return;
    return { abort: true as const, reason: "payment_not_recorded" };
  });

  resourceServer.onAfterSettle(async (context: SettleResultContext) => {
    const authorization = authorizationOf(context.paymentPayload);
    if (authorization === null) return;
    const key = { payer: authorization.payer, nonce: authorization.nonce };
    if (context.result.transaction) {
      await write(() => records.markSettled(key, context.result.transaction));
      return;
    }
    // Success without a transaction says nothing about the transfer (as if unanswered): the
    // chain does, and the ledger answers what the record then says.
    await decideFailed(authorization, context.requirements.network, null).catch(onError);
  });

  resourceServer.onSettleFailure(async (context: SettleFailureContext) => {
    const answered = answerOf(context.error, context.requirements.network);
    const authorization = authorizationOf(context.paymentPayload);
    if (authorization === null) {
      // A channel's deposit, charge or refund: its ledger keeps the books; no upstream text out.
      return {
        recovered: true as const,
        result: answered ?? failure(context.requirements.network, "settlement_failed"),
      };
    }
    try {
      return {
        recovered: true as const,
        result: await decideFailed(authorization, context.requirements.network, answered),
      };
    } catch (error) {
      // Deciding failed unexpectedly: nothing is proven, so the outcome stays open for the
      // reconciler, and the payer hears settlement_unknown, never an exception's text.
      onError(error);
      const key = { payer: authorization.payer, nonce: authorization.nonce };
      await write(() => records.markUnknown(key, null));
      return {
        recovered: true as const,
        result: failure(context.requirements.network, settlementUnknown),
      };
    }
  });

  /**
   * A settlement that did not answer a transaction, decided from what the facilitator said
   * (`answered`, null when it said nothing) and the chain, and written to the record.
   */
  async function decideFailed(
    authorization: PaidAuthorization,
    network: string,
    answered: SettleResponse | null,
  ): Promise<SettleResponse> {
    const key = { payer: authorization.payer, nonce: authorization.nonce };
    const refused = (reason: string, transaction = ""): SettleResponse => ({
      ...failure(network, reason, transaction),
      payer: key.payer,
    });
    const broadcast = options.broadcastFor?.(key.payer, key.nonce);
    const candidate = isTx(answered?.transaction)
      ? (answered?.transaction as Hex)
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
        // The transfer is on chain: the record says settled, the ledger answers the report.
        await write(() => records.markSettled(key, tx));
        return refused(settlementUnknown, tx);
      }
      // Used without a transfer: the payer cancelled it (cancelAuthorization); it never can pay.
      const since = validBefore - authorizationLookBackSeconds;
      if (await chain.authorizationCanceled(key.payer, key.nonce, since).catch(() => false)) {
        await write(() => records.markFailed(key));
        return refused(authorizationCanceled);
      }
      await write(() => records.markUnknown(key, candidate));
      return refused(settlementUnknown, candidate ?? "");
    }
    // Nothing was broadcast (the in-process facilitator knows; one that no longer knows the
    // authorization proves nothing), or the facilitator answered a refusal before sending
    // anything: no charge is possible.
    const neverSent =
      broadcast === null || (options.broadcastFor === undefined && answered !== null && !candidate);
    if (neverSent) {
      await write(() => records.markFailed(key));
      return answered ?? refused("settlement_failed");
    }
    if (used === false && candidate !== null) {
      // A mined transaction that reverted used the facilitator's nonce without the transfer.
      const status = await chain.receiptStatus(candidate).catch(() => null);
      if (status === "reverted") {
        await write(() => records.markFailed(key));
        return answered ?? refused("settlement_failed", candidate);
      }
    }
    await write(() => records.markUnknown(key, candidate));
    return refused(settlementUnknown, candidate ?? "");
  }
}

/**
 * The facilitator's failed answer carried by the hook's error (x402 turns a failed SettleResponse
 * into a SettleError), or null when there was none: it did not answer, or something failed before
 * it was asked.
 */
function answerOf(error: unknown, network: string): SettleResponse | null {
  if (!(error instanceof SettleError) || error.errorReason === settlementUnanswered) return null;
  return {
    success: false,
    errorReason: error.errorReason ?? "settlement_failed",
    transaction: error.transaction ?? "",
    network: (error.network ?? network) as SettleResponse["network"],
    ...(error.payer ? { payer: error.payer } : {}),
  };
}

function failure(network: string, reason: string, transaction = ""): SettleResponse {
  return {
    success: false,
    errorReason: reason,
    transaction,
    network: network as SettleResponse["network"],
  };
}

function isTx(value: unknown): value is Hex {
  return typeof value === "string" && isHash(value);
}
