import { ChainNameSchema } from "@presend/shared/api/report";
import { z } from "zod";
import { AddressSchema, HistoryEntrySchema, RouteSchema } from "../storage/schemas";

// The one message protocol between the extension's parts. Every request and every response is
// parsed on arrival: a message is data from another process, and a content script can be
// lied to by the page it lives in.

export const WalletInfoSchema = z.object({
  /** A wallet is injected in the page (EIP-6963 or window.ethereum). */
  available: z.boolean(),
  /** The connected account, when the page is already authorised (no prompt to find out). */
  address: AddressSchema.nullable(),
  chainId: z.number().int().nullable(),
  /** The wallet's display name from EIP-6963, when announced. */
  name: z.string().nullable(),
  /**
   * The other wallets in the page (their EIP-6963 names): the one connected to the site pays,
   * so the card can say how to pay with another.
   */
  others: z.array(z.string().max(64)).max(8),
});
export type WalletInfo = z.infer<typeof WalletInfoSchema>;

/**
 * The content script's key for the document it runs in (one per page load): a check or a receipt
 * signature a badge started asks its wallet requests of that document only, so a page loaded in
 * the tab since the click (a reload, another site) is asked nothing.
 */
const DocumentKeySchema = z.string().min(16).max(64);

/** Where a paid check was started: the badge in a tab, or the popup (paying with the active tab's wallet). */
const CheckSourceSchema = z.object({
  kind: z.enum(["badge", "popup"]),
  tabId: z.number().int(),
  frameId: z.number().int(),
});

export const CheckStartSchema = z.object({
  /** Per-click random id, minted in the extension's own UI; the page never sees it. */
  session: z.string().min(16),
  route: RouteSchema,
  address: AddressSchema,
  chain: ChainNameSchema,
  /** Set by the popup; a badge's tab and frame come from the message sender instead. */
  source: CheckSourceSchema.optional(),
  /** Set by a badge: the document it was clicked in (the popup's is learnt from wallet.account). */
  document: DocumentKeySchema.optional(),
});
export type CheckStart = z.infer<typeof CheckStartSchema>;

export const ProgressSchema = z.discriminatedUnion("step", [
  z.object({ step: z.literal("requesting") }),
  /** The attested challenge: what will be paid and to whom, shown before the wallet asks. */
  z.object({
    step: z.literal("waiting-wallet"),
    /** The paying account sent as the check's sender (absent when checking one's own address). */
    from: AddressSchema.optional(),
    amount: z.string(),
    payTo: AddressSchema,
    keyFingerprint: z.string(),
    keyPinnedNow: z.boolean(),
    /** The wallet signs a deposit into a payment channel of this many base units, not one check. */
    deposit: z.string().optional(),
  }),
  z.object({ step: z.literal("paying") }),
  z.object({ step: z.literal("checking") }),
]);
export type Progress = z.infer<typeof ProgressSchema>;

const refusalCodes = [
  "invalid_address",
  "attestation_missing",
  "attestation_invalid",
  "attestation_mismatch",
  "key_changed",
  "cap_reached",
  "ledger_unreadable",
  "no_wallet",
  "unexpected_challenge",
] as const;
export type RefusalCode = (typeof refusalCodes)[number];

export const CheckOutcomeSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("report"), entry: HistoryEntrySchema }),
  /** Stopped before any signature was requested. Nothing was charged. */
  z.object({ type: z.literal("refused"), code: z.enum(refusalCodes), message: z.string() }),
  /** The user declined in the wallet. Nothing was charged. */
  z.object({ type: z.literal("rejected"), message: z.string() }),
  z.object({
    type: z.literal("failed"),
    message: z.string(),
    /** "unknown" when the signed payment was sent but no answer came back. */
    charged: z.union([z.boolean(), z.literal("unknown")]),
    /** The stored pending recovery (see PendingRecoverySchema): the report can be fetched again. */
    recoveryId: z.string().optional(),
    /**
     * channel_out_of_step: the channel fell out of step with the server and a new one opens on
     * the next check (checking again is the remedy; no setting is). background_stopped: the
     * background stopped before this check paid anything (lostCheckOutcome; checking again is
     * the remedy here too). page_left: the page the check was clicked in was left (reloaded,
     * another site, closed) before its wallet signed, and nothing was paid. wallet_signature: the
     * wallet's signature is not the one it was asked for (another account, another chain, other
     * terms, malformed, or given after its time to sign ran out) and paid nothing. wallet_silent: the wallet never answered the request.
     * payment_refused: the server refused the signed payment before taking it, for a reason of
     * x402's (told in the message). wallet_error: the wallet answered with an error of its own
     * (its words in the message). None is mended by settings.
     */
    code: z
      .enum([
        "channel_out_of_step",
        "background_stopped",
        "page_left",
        "wallet_signature",
        "wallet_silent",
        "payment_refused",
        "wallet_error",
      ])
      .optional(),
  }),
  /** A report arrived whose signature does not verify with the pinned key: not shown, not trusted. */
  z.object({
    type: z.literal("forged"),
    message: z.string(),
    charged: z.union([z.literal(true), z.literal("unknown")]),
    recoveryId: z.string().optional(),
  }),
]);
export type CheckOutcome = z.infer<typeof CheckOutcomeSchema>;

export const RecoveryStartSchema = z.object({
  /** Per-click random id, minted in the extension's own UI, like a check's. */
  session: z.string().min(16),
  recoveryId: z.string(),
  /** Set by the popup; a badge's tab and frame come from the message sender instead. */
  source: CheckSourceSchema.optional(),
  /** Set by a badge: the document it was clicked in. */
  document: DocumentKeySchema.optional(),
});
export type RecoveryStart = z.infer<typeof RecoveryStartSchema>;

/** How fetching a charged report again ended (GET /receipts with the payer's signature). */
export const RecoveryOutcomeSchema = z.discriminatedUnion("type", [
  /** The report, its signature verified with the pinned key; now in the history. */
  z.object({ type: z.literal("recovered"), entry: HistoryEntrySchema }),
  /** The server does not know yet whether the payment settled (the chain is being read). */
  z.object({ type: z.literal("pending"), message: z.string() }),
  /** The server proves the authorization never settled: nothing was charged. */
  z.object({ type: z.literal("not_charged"), message: z.string() }),
  /** The stored report's signature does not verify with the pinned key: not shown, not trusted. */
  z.object({ type: z.literal("forged"), message: z.string() }),
  /** The person declined the signature in the wallet. */
  z.object({ type: z.literal("rejected"), message: z.string() }),
  /** Could not ask (no wallet, the server unreachable, another account); try again. */
  z.object({ type: z.literal("failed"), message: z.string() }),
]);
export type RecoveryOutcome = z.infer<typeof RecoveryOutcomeSchema>;

/**
 * What the side panel shows of a badge: its state without the callbacks. The panel assesses the
 * address itself (assessLocally, from the candidate and the stored history), as the badge does.
 */
export const PanelStateSchema = z.object({
  /** The frame's site (hostname), for "Off on this site". */
  site: z.string(),
  candidate: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("address"), value: z.string() }),
    z.object({ kind: z.literal("near-miss"), value: z.string(), hexLength: z.number().int() }),
  ]),
  contractField: z.boolean(),
  chain: ChainNameSchema,
  chainSource: z.enum(["wallet", "default", "user"]),
  progress: ProgressSchema.nullable(),
  outcome: CheckOutcomeSchema.nullable(),
  busy: z.boolean(),
  wallet: WalletInfoSchema.nullable(),
  inFrame: z.boolean(),
  contractOn: z.string().nullable(),
  recovery: z.object({ busy: z.boolean(), result: RecoveryOutcomeSchema.nullable() }),
});
export type PanelState = z.infer<typeof PanelStateSchema>;

/** A click in the side panel, for the badge whose state it shows (its address and chain). */
export const PanelActionSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("check"),
    route: RouteSchema,
    address: AddressSchema,
    chain: ChainNameSchema,
  }),
  z.object({ action: z.literal("chain"), chain: ChainNameSchema }),
  z.object({ action: z.enum(["cancel", "clear-field", "close", "fetch-report", "off-site"]) }),
]);
export type PanelAction = z.infer<typeof PanelActionSchema>;

const SignRequestSchema = z.object({
  session: z.string(),
  /** The document the check was started in: any other refuses (page_left). */
  document: DocumentKeySchema.optional(),
  /** EIP-712 typed data as tagged JSON (bigints survive the trip; see jsonWithBigints). */
  typedData: z.string(),
});

export const protocol = {
  /** badge or popup → background: a click asked for a paid check. */
  "check.start": { request: CheckStartSchema, response: CheckOutcomeSchema },
  /** popup → background: the wallet of the active tab, if any. */
  "wallet.status": { request: z.object({ tabId: z.number().int() }), response: WalletInfoSchema },
  /** background → content script: the page wallet's state, without prompting. */
  "wallet.info": { request: z.object({}), response: WalletInfoSchema },
  /** background → content script: connect (may prompt) and return the paying account. */
  "wallet.account": {
    request: z.object({ session: z.string(), document: DocumentKeySchema.optional() }),
    /** `document`: the answering document's key, which the check's later requests name. */
    response: z.object({ address: AddressSchema, document: DocumentKeySchema }),
  },
  /** background → content script: sign the EIP-3009 authorization on Base. */
  "wallet.sign": {
    request: SignRequestSchema,
    response: z.object({ signature: z.string().regex(/^0x[0-9a-fA-F]+$/) }),
  },
  /**
   * background → content script: a read-only eth_call on Base through the page's wallet (the
   * payment channel's state in the escrow, when presend's server says the channel is out of step).
   */
  "wallet.call": {
    request: z.object({
      session: z.string(),
      document: DocumentKeySchema.optional(),
      chainId: z.number().int(),
      to: AddressSchema,
      data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/),
    }),
    response: z.object({ data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/) }),
  },
  /** badge or popup → background: a click asked to fetch a charged report again. */
  "recovery.fetch": { request: RecoveryStartSchema, response: RecoveryOutcomeSchema },
  /** background → content script: the payer's EIP-191 signature of "presend receipt <nonce>". */
  "wallet.signMessage": {
    request: z.object({
      session: z.string(),
      document: DocumentKeySchema.optional(),
      /** The account that paid: the wallet must sign with it. */
      account: AddressSchema,
      message: z.string().regex(/^presend receipt 0x[0-9a-f]+$/),
    }),
    response: z.object({ signature: z.string().regex(/^0x[0-9a-fA-F]+$/) }),
  },
  /** content script → background: the page's wallet accepted a send to these addresses. */
  "recipient.sent": {
    request: z.object({ addresses: z.array(AddressSchema).min(1).max(10) }),
    response: z.null(),
  },
  /** popup → background: close the payment channels this browser holds, each at its API (the rest goes back). */
  "channel.close": {
    /** The popup's tab, whose wallet may read the channel's state on Base for a resync. */
    request: z.object({ tabId: z.number().int().nullable().optional() }),
    response: z.object({ type: z.enum(["closed", "failed", "none"]), message: z.string() }),
  },
  /** badge → background: open the options page (from an error that the settings can fix). */
  "options.open": { request: z.object({}), response: z.null() },
  /** badge → background: show its details in the browser's side panel (a click in the badge). */
  "panel.open": { request: z.object({}), response: z.object({ opened: z.boolean() }) },
  /** side panel → content script: the state of the badge it shows (null: none shown). */
  "panel.state": { request: z.object({}), response: PanelStateSchema.nullable() },
  /** content script → side panel: the badge changed (null: it went away). */
  "panel.changed": {
    request: z.object({ state: PanelStateSchema.nullable() }),
    response: z.null(),
  },
  /** side panel → content script: a click in the panel's card. */
  "panel.action": { request: PanelActionSchema, response: z.null() },
  /** badge → background: the person turned presend off on this site. */
  "site.disable": { request: z.object({}), response: z.null() },
  /** background → badge or popup: how a paid check is going. */
  "check.progress": {
    request: z.object({ session: z.string(), progress: ProgressSchema }),
    response: z.null(),
  },
} as const;

export type Protocol = typeof protocol;
export type MessageType = keyof Protocol;
export type RequestOf<T extends MessageType> = z.infer<Protocol[T]["request"]>;
export type ResponseOf<T extends MessageType> = z.infer<Protocol[T]["response"]>;

/** Failures that cross the protocol as data (the receiver rethrows them as MessageError). */
export const MessageFailureSchema = z.object({
  /**
   * cancelled: the person stopped waiting for the wallet in presend's own UI (nothing signed).
   * switch_declined: the person declined to switch the wallet to Base (no payment was shown).
   * page_left: the request names a document the tab no longer shows (nothing was asked of it),
   * or the tab was closed before its page answered.
   * no_answer: the wallet was asked and did not answer in time (a hung wallet; its late answer
   * is dropped). wallet_unauthorized, wallet_unsupported, wallet_busy, wallet_error: the wallet
   * answered with an error of its own (EIP-1193 4100; 4200 or -32601; -32002, another request
   * of the site open in it; any other), the message being the wallet's own words.
   */
  code: z.enum([
    "page_left",
    "no_answer",
    "rejected",
    "cancelled",
    "switch_declined",
    "no_wallet",
    "not_allowed",
    "invalid",
    "failed",
    "wallet_unauthorized",
    "wallet_unsupported",
    "wallet_busy",
    "wallet_error",
  ]),
  message: z.string(),
});
export type MessageFailure = z.infer<typeof MessageFailureSchema>;

export const EnvelopeSchema = z.object({
  presend: z.literal(1),
  type: z.string(),
  data: z.unknown(),
});

export const ReplySchema = z.union([
  z.object({ ok: z.literal(true), data: z.unknown() }),
  z.object({ ok: z.literal(false), error: MessageFailureSchema }),
]);
