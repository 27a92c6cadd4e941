import { addressPattern } from "@presend/shared/address/addressPattern";
import { InputError } from "@presend/shared/errors/InputError";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";

/**
 * What the person sees of an open payment channel: where it pays, from which account, what went
 * in and what checks took. Written by the background (the only part that pays), read by the card
 * and the popup; it holds nothing that can sign (the session key stays in session storage).
 */
export type ChannelBalance = {
  channelId: string;
  /** The API origin the channel pays (see pinScope). */
  apiUrl: string;
  payer: string;
  /** USDC base units deposited (less what a partial refund returned). */
  deposited: string;
  /** USDC base units the checks paid from it so far. */
  charged: string;
  /**
   * The highest cumulative amount a voucher for it was signed at, when above `charged`: a
   * voucher whose answer was lost may have been charged, so it counts as spent here.
   */
  signed?: string;
  updatedAt: string;
  /**
   * The UTC day its deposits were counted in the daily cap, and how much of them (USDC base
   * units) counts there: what closing it may give back to that day's cap.
   */
  depositDay?: string;
  depositCounted?: string;
  /**
   * Its key is gone (the browser session that held it ended, or the channel fell out of step
   * and was left for a new one): it pays no more checks and cannot be closed from here; the
   * server refunds it once idle.
   */
  sessionEnded?: true;
  /**
   * When the channel was last re-synced with presend's server (the server counted a check this
   * record had not, proven by the session key's own voucher signature).
   */
  resyncedAt?: string;
};

/** The storage key (local storage: the card in a page reads it). */
export const channelBalancesKey = "channelBalances";

const units = /^\d+$/;

function isChannelBalance(value: unknown): value is ChannelBalance {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const text = (key: string, pattern?: RegExp) =>
    typeof v[key] === "string" && (pattern === undefined || pattern.test(v[key] as string));
  return (
    text("channelId", bytes32Pattern) &&
    text("apiUrl") &&
    text("payer", addressPattern) &&
    text("deposited", units) &&
    text("charged", units) &&
    text("updatedAt") &&
    (v.signed === undefined || text("signed", units)) &&
    (v.depositDay === undefined || text("depositDay")) &&
    (v.depositCounted === undefined || text("depositCounted", units)) &&
    (v.sessionEnded === undefined || v.sessionEnded === true) &&
    (v.resyncedAt === undefined || text("resyncedAt"))
  );
}

/**
 * The channels' balances stored under channelBalancesKey, as a schema for validatedItem. Checked
 * by hand rather than with zod: the card reads it in every page where it opens, and zod would
 * take a quarter of the card's budget.
 */
export const ChannelBalancesSchema = {
  safeParse(
    value: unknown,
  ): { success: true; data: ChannelBalance[] } | { success: false; error: unknown } {
    if (!Array.isArray(value) || !value.every(isChannelBalance)) {
      return { success: false, error: new InputError("Not a list of channel balances.") };
    }
    return { success: true, data: value.map((balance) => ({ ...balance })) };
  },
  parse(value: unknown): ChannelBalance[] {
    const parsed = ChannelBalancesSchema.safeParse(value);
    if (!parsed.success) throw parsed.error;
    return parsed.data;
  },
};

/**
 * The channels' balances from a raw stored value: an unreadable value reads as no channel.
 * @example const balances = readChannelBalances((await browser.storage.local.get(channelBalancesKey))[channelBalancesKey])
 */
export function readChannelBalances(raw: unknown): ChannelBalance[] {
  const parsed = ChannelBalancesSchema.safeParse(raw ?? []);
  return parsed.success ? parsed.data : [];
}

/**
 * What is left to pay checks with, in USDC base units: a voucher signed but not answered counts
 * as spent (at most this much is left).
 */
export function channelLeft(balance: ChannelBalance): bigint {
  const charged = BigInt(balance.charged);
  const signed = BigInt(balance.signed ?? "0");
  const left = BigInt(balance.deposited) - (signed > charged ? signed : charged);
  return left > 0n ? left : 0n;
}
