import type { DeepReport, Report } from "@presend/shared/api/report";
import type { ValidateResponse } from "@presend/shared/api/validate";
import type { Address, Hex } from "viem";

/** Why the client refused to pay: each is decided before anything is signed. */
export type RefusalCode =
  | "invalid_address"
  | "invalid_from"
  | "from_equals_address"
  | "invalid_payment_id"
  | "redirect"
  | "unexpected_challenge"
  | "network_mismatch"
  | "asset_mismatch"
  /** A channel deposit by another transfer method than EIP-3009 (Permit2, say). */
  | "transfer_method_mismatch"
  | "validity_too_long"
  | "attestation_missing"
  | "attestation_invalid"
  | "key_changed"
  | "payto_mismatch"
  | "price_above_attested"
  | "offer_invalid"
  | "over_max_price"
  | "cap_reached"
  /** The spend cap's own record (the CLI's daily ledger file) cannot be read or written. */
  | "ledger_unreadable"
  | "no_signer"
  /** The pinned keys cannot be read, or a key to pin cannot be written. */
  | "pin_store_unreadable";

/** The transfer that paid for a report, as the server's PAYMENT-RESPONSE named it. */
export type Settlement = {
  transaction: Hex;
  network: string;
  payer: Address;
  /** Base units of USDC that were asked for. */
  amount: string;
  payTo: Address;
  /**
   * Paid over a batch-settlement channel: then `transaction` is the payment record's nonce
   * (channelReceiptNonce), which the report signature binds; the claim transaction that moves
   * the money comes later and /receipts names it.
   */
  viaChannel?: true;
};

/** What the client knows of an authorization it sent, for recovery when the answer was lost. */
export type SentAuthorization = { payer: Address; nonce: Hex; amount: string; payTo: Address };

/** A paid check's outcome, without the payment id it was sent with (see PaidResult). */
export type PaidOutcome<R> =
  | {
      type: "report";
      report: R;
      settlement: Settlement;
      /** The detached signature over report and settlement verified with the pinned key. */
      signature: "verified";
      /** The offer-receipt receipt in PAYMENT-RESPONSE verified too (null when recovered). */
      receipt: "verified" | null;
      /** Fetched again through /receipts after the first answer was lost or unreadable. */
      recovered: boolean;
      /**
       * Read again signed in (Sign-In-With-X): paid for by an earlier payment of this wallet,
       * nothing charged now. The settlement is that earlier one.
       */
      signedIn?: true;
      charged: true;
    }
  | { type: "refused"; code: RefusalCode; message: string; charged: false }
  | {
      type: "not_charged";
      /** The server's error code, or why the answer proves no settlement. */
      code: string;
      status: number | null;
      message: string;
      charged: false;
      /** What the signer threw, when signing failed (a wallet's "rejected", say). */
      cause?: unknown;
    }
  | {
      type: "unrecovered";
      message: string;
      charged: true | "unknown";
      settlement: Settlement | null;
      authorization: SentAuthorization;
      /** What the payer can do to get the report. */
      recover: string;
    }
  | {
      type: "forged";
      message: string;
      charged: true | "unknown";
      settlement: Settlement | null;
      /** The body as received: not to be trusted. */
      report: unknown;
    };

/**
 * A paid check's outcome. `charged` says what is known about money: never "false" unless proven.
 * `paymentId` is the x402 payment-identifier the payment was sent with (null when nothing was
 * signed, the server offered no payment-identifier, or the report was fetched from /receipts):
 * calling again with it (`check({ ..., paymentId })`) gets the same report and is charged once.
 */
export type PaidResult<R> = PaidOutcome<R> & { paymentId: string | null };

/**
 * What a receipt lookup gets: a verified report, a forged one, "not charged" only when the server
 * has no record of the payment (404), or "unavailable" when the lookup failed in a way that says
 * nothing about the charge (not decided yet, another signer, the server unreachable, no pinned key).
 */
export type ReceiptResult =
  | Extract<PaidOutcome<Report | DeepReport>, { type: "report" | "forged" | "not_charged" }>
  | {
      type: "receipt_unavailable";
      /** `receipt_pending` (409: the chain has not decided yet), the server's code, or why not asked. */
      code: string;
      status: number | null;
      message: string;
      charged: "unknown";
    };

export type ValidateResult =
  | { type: "validated"; result: ValidateResponse }
  | { type: "failed"; status: number | null; code: string; message: string };

/** Progress of a paid check, for callers that show it (the CLI prints settled at once). */
export type ClientEvent =
  | { type: "pinned"; origin: string; kid: string; fingerprint: string }
  /** The pin moved to the key `from` handed over to with its rotation statement. */
  | { type: "key_followed"; origin: string; from: string; kid: string; fingerprint: string }
  | {
      type: "verified";
      amount: string;
      payTo: Address;
      fingerprint: string;
      pinnedNow: boolean;
    }
  /**
   * The signed payment is being sent: from here on money may move. It names the authorization
   * (its nonce is the id `/receipts` fetches the report by) and the payment id a retry is charged
   * once with (null over a channel), so a caller stopped now can still say where the report is.
   */
  | { type: "paying"; authorization: SentAuthorization; paymentId: string | null }
  | { type: "settled"; settlement: Settlement }
  | ({ type: "recovering" } & ({ transaction: Hex } | { authorization: SentAuthorization }));
