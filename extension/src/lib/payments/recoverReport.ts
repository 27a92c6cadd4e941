import { createPresendClient, type PinStore } from "@presend/client";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import { type Address, getAddress, type Hex } from "viem";
import { MessageError } from "../messaging/MessageError";
import type { RecoveryOutcome } from "../messaging/protocol";
import type { HistoryEntry, PendingRecovery, PinnedKeys, SpendLedger } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { isUserRejection } from "../wallet/isUserRejection";

export type RecoverReportDeps = {
  fetch: typeof fetch;
  pinnedKeys: ValidatedItem<PinnedKeys>;
  recoveries: ValidatedItem<PendingRecovery[]>;
  history: ValidatedItem<HistoryEntry[]>;
  historyLimit: number;
  /** The daily cap's ledger: gets back a counted payment the server proves was never charged. */
  ledger: ValidatedItem<SpendLedger>;
  /** The payer's EIP-191 signature of `message`, through the page wallet (the person's click). */
  signMessage: (account: Address, message: string) => Promise<Hex>;
  now: () => Date;
  randomId: () => string;
};

/**
 * Fetches the report of a charged (or possibly charged) payment again: GET /receipts by
 * settlement transaction, or by payer and authorization nonce, proven with the payer's
 * signature; the report is trusted only when its signature verifies with the key pinned for
 * that API (the presend client's own receipt check). Recovered reports go to the history and
 * leave the pending list; anything else is written back to the pending entry, to try again.
 * @example const outcome = await recoverReport(recoveryId, deps)
 */
export async function recoverReport(
  recoveryId: string,
  deps: RecoverReportDeps,
): Promise<RecoveryOutcome> {
  const recovery = (await deps.recoveries.getValue()).find((r) => r.id === recoveryId);
  if (!recovery) {
    return {
      type: "failed",
      message: "This payment no longer waits for its report (fetched already, or dismissed).",
    };
  }
  let signing: unknown = null;
  // Read-only: a recovered report is checked against the key pinned when it was paid, never a new one.
  const pinStore: PinStore = {
    get: async (origin) => (await deps.pinnedKeys.getValue())[origin],
    set: async () => {
      throw new AttestationError("Recovering a report never pins a key.");
    },
  };
  const client = createPresendClient({
    url: recovery.apiUrl,
    fetch: deps.fetch,
    pinStore,
    now: deps.now,
    signer: {
      address: recovery.payer,
      signTypedData: async () => {
        throw new PaymentError("Recovering a report pays nothing.");
      },
      signMessage: async ({ message }) => {
        try {
          return await deps.signMessage(recovery.payer, message);
        } catch (error) {
          signing = error;
          throw error;
        }
      },
    },
  });
  const result = await client.receipt(
    recovery.transaction !== null
      ? (recovery.transaction as Hex)
      : { payer: recovery.payer, nonce: recovery.nonce as Hex },
  );

  const outcome = ((): RecoveryOutcome => {
    if (result.type === "report") {
      if (result.report.address.toLowerCase() !== recovery.address.toLowerCase()) {
        return {
          type: "forged",
          message: `The server answered a report about another address (${result.report.address}): not trusted.`,
        };
      }
      // Filed under the chain the check paid for, so it must be about that chain: a verdict on
      // another network is not this recipient's.
      if (result.report.chain.name !== recovery.chain) {
        return {
          type: "forged",
          message: `The server answered a report about another network (${result.report.chain.name}, not ${recovery.chain}): not trusted.`,
        };
      }
      const entry: HistoryEntry = {
        id: deps.randomId(),
        address: result.report.address as Address,
        chain: recovery.chain,
        route: recovery.route,
        level: result.report.verdict.level,
        headline: result.report.verdict.headline,
        checkedAt: deps.now().toISOString(),
        amount: result.settlement.amount,
        payTo: getAddress(result.settlement.payTo),
        transaction: result.settlement.transaction,
        report: result.report,
      };
      return { type: "recovered", entry };
    }
    if (signing !== null) {
      const declined = walkCauses(
        signing,
        (e) => e instanceof MessageError && e.code === "rejected",
      );
      return isUserRejection(signing) || declined !== null
        ? { type: "rejected", message: "You declined the signature in your wallet." }
        : {
            type: "failed",
            message: `The wallet could not sign: ${signing instanceof Error ? signing.message : String(signing)}`,
          };
    }
    switch (result.type) {
      case "forged":
        return {
          type: "forged",
          message: `${result.message} The report is not shown and not trusted.`,
        };
      case "not_charged":
        // The server's own words name the authorization's nonce and the payer in hex: a person
        // needs what it means and what to do.
        return {
          type: "not_charged",
          message:
            "presend's server has no record of this payment. Check again to pay for the check.",
        };
      case "receipt_unavailable":
        if (result.code === "receipt_pending") {
          return { type: "pending", message: result.message };
        }
        if (result.status === 403) {
          return {
            type: "failed",
            message: `Only the paying account (${recovery.payer}) can fetch this report: switch your wallet to it and try again.`,
          };
        }
        return {
          type: "failed",
          message: `The report could not be fetched (${result.message}); try again.`,
        };
    }
  })();

  if (outcome.type === "recovered") {
    const { entry } = outcome;
    await deps.history.update((list) => [entry, ...list].slice(0, deps.historyLimit));
    await deps.recoveries.update((list) => list.filter((r) => r.id !== recoveryId));
  } else {
    const state = outcome.type === "not_charged" ? "not_charged" : outcome.type;
    // A payment the server proves never settled leaves the daily cap: its counted day is taken
    // off the entry here, in the same update, so a second fetch cannot give it back twice.
    let counted: { day: string; amount: bigint } | null = null;
    await deps.recoveries.update((list) =>
      list.map((r) => {
        if (r.id !== recoveryId) return r;
        const { countedOn, ...rest } = r;
        const proven = outcome.type === "not_charged";
        if (proven && countedOn !== undefined)
          counted = { day: countedOn, amount: BigInt(r.amount) };
        return {
          ...(proven ? rest : r),
          lastAttempt: { at: deps.now().toISOString(), state, message: outcome.message },
        };
      }),
    );
    if (counted !== null) await giveBack(deps.ledger, counted);
  }
  return outcome;
}

// Takes a payment proven uncharged off the day's spending, while the ledger still counts that
// day (a past day's spending no longer holds the cap); never below zero. An unreadable ledger
// stays as it is: the person resets it in the options.
async function giveBack(
  ledger: ValidatedItem<SpendLedger>,
  counted: { day: string; amount: bigint },
): Promise<void> {
  await ledger
    .update((current) => {
      if (current.day !== counted.day) return current;
      const spent = BigInt(current.spentUnits);
      const back = counted.amount < spent ? counted.amount : spent;
      return { day: current.day, spentUnits: Number(spent - back) };
    })
    .catch(() => undefined);
}
