import { createPresendClient, type PinStore } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { Address } from "viem";
import type { ResponseOf } from "../messaging/protocol";
import { createLedgerSpendCap } from "../payments/createLedgerSpendCap";
import { createPendingSpend } from "../payments/createPendingSpend";
import { utcDay } from "../payments/utcDay";
import { pinScope } from "../storage/pinScope";
import type { Settings, SpendLedger } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { type ChannelBalance, channelLeft } from "./channelBalances";
import type { ChannelAccess } from "./createChannelAccess";
import type { ContractReader } from "./createPageChainReader";
import { outOfStepCodes } from "./outOfStepCodes";

export type CloseChannelsDeps = {
  fetch: typeof fetch;
  settings: () => Promise<Settings>;
  pinStore: PinStore;
  balances: ValidatedItem<ChannelBalance[]>;
  access: ChannelAccess;
  /** The daily cap's ledger: a close gives back what its refund returned of a deposit counted there. */
  ledger: ValidatedItem<SpendLedger>;
  now: () => Date;
  /**
   * Reads Base through the popup's tab's wallet, when it has one: a channel the server finds out
   * of step (a check's answer lost) is then resynced and closed instead of left.
   */
  readContract?: ContractReader;
};

export type CloseOutcome = ResponseOf<"channel.close">;

/** The wallet is never asked when closing: only the session key signs (the refund voucher). */
const noWalletSignature = async (): Promise<never> => {
  throw new PaymentError("Closing a channel asks the wallet for nothing.", {
    code: "wallet_not_asked",
  });
};

/**
 * Closes the open channels this browser holds, each at the API it pays (the settings may name
 * another API since: the popup shows every channel's balance and offers it back), through the
 * client's cooperative refund:
 * the session key signs a voucher for no more than was charged, the server claims that and sends
 * the rest of the deposit back to the paying account on chain. A channel whose session key ended
 * with the browser session cannot sign it: the server refunds such an idle channel itself. What a
 * refund returned is given back to the daily cap, on the day its deposit was counted.
 * @example const outcome = await closeChannels(deps)
 */
export async function closeChannels(deps: CloseChannelsDeps): Promise<CloseOutcome> {
  const { dailyCapUnits } = await deps.settings();
  // Closing reserves nothing: the cap is used only to give back what a refund returned.
  const cap = createLedgerSpendCap({
    ledger: deps.ledger,
    pending: createPendingSpend(),
    dailyCapUnits,
    today: utcDay(deps.now()),
  });
  // Every channel shown, not only those of the API in the settings: a channel opened before the
  // API was changed was offered back as "get $0.04 back" and answered "No payment channel is open".
  const open = await deps.balances.getValue();
  if (open.length === 0) return { type: "none", message: "No payment channel is open." };
  const messages: string[] = [];
  // Channels this close cannot act on (their key ended): told when nothing else was closed.
  const notes: string[] = [];
  let failed = false;
  let closedAny = false;
  for (const balance of open) {
    if (!(await deps.access.holds(balance.channelId))) {
      // Not a failure of this close: the popup offers back only the channels it holds, so after
      // a browser restart and a new channel, closing that one said "failed" in a warning beside
      // its own "Closed: … sent back", for a channel the button never offered.
      notes.push(
        `The ${formatUsdc(channelLeft(balance))} left in an earlier channel (its browser session ended, or it fell out of step with the server) can no longer be closed from here; presend's server sends it back to your wallet after a day without checks.`,
      );
      continue;
    }
    const origin = pinScope(balance.apiUrl);
    const client = createPresendClient({
      url: new URL(origin).toString(),
      fetch: deps.fetch,
      pinStore: deps.pinStore,
      signer: {
        address: balance.payer as Address,
        signTypedData: noWalletSignature,
        signMessage: noWalletSignature,
        ...(deps.readContract && { readContract: deps.readContract }),
      },
      channel: await deps.access.options(
        { apiUrl: origin, payer: balance.payer as Address },
        0n,
        // A refund voucher is for no more than was charged: it adds nothing.
        () => 0n,
      ),
    });
    const closed = await deps.access.exclusive(() => client.closeChannel());
    if (closed.type === "closed") {
      closedAny = true;
      const back = closed.refunded ?? String(channelLeft(balance));
      messages.push(`Closed: ${formatUsdc(back)} sent back to your wallet.`);
      // The cap gets back what the refund says it returned (nothing when it says nothing), never
      // more than the deposit held less the checks paid from it, on the day the deposit counted.
      if (closed.refunded !== null && balance.depositDay !== undefined) {
        const left = channelLeft(balance);
        const refunded = BigInt(closed.refunded);
        await cap
          .countedDeposit(BigInt(balance.depositCounted ?? "0"), balance.depositDay)
          .refund(refunded < left ? refunded : left)
          .catch(() => 0n);
      }
    } else if (closed.nothingLeft === true) {
      // Already refunded by the server once idle (or all spent): the balance shown was stale, it
      // kept offering "get $0.04 back" after the rest was in the wallet. Said as the end of the
      // channel, not a failure; the client left the channel (its record and balance with it),
      // so the next check opens a new one.
      closedAny = true;
      messages.push(closed.message);
    } else if (outOfStepCodes.some((code) => closed.message.includes(code))) {
      // A check's answer was lost: the server counted a voucher this record does not, and no
      // wallet could read Base to resync it. The channel is left, as a check that meets it
      // would, so the next check opens a new one.
      failed = true;
      await deps.access.startOver();
      messages.push(
        `This channel is out of step with presend's server (the answer to a check was lost), so it cannot be closed from here. It pays no more checks: the server sends what is left of it back to your wallet after a day without checks, and your next check opens a new channel.`,
      );
    } else {
      failed = true;
      messages.push(`The channel could not be closed: ${closed.message}`);
    }
  }
  // Once something closed, the notes are left out: the popup's balance line already names every
  // earlier channel (saying it twice read as a second, unrelated problem).
  return {
    type: failed || !closedAny ? "failed" : "closed",
    message: (closedAny ? messages : [...messages, ...notes]).join(" "),
  };
}
