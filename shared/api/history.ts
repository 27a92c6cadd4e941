import { z } from "zod";

// What presend read of the token (and native) transfers around a check, per chain. The chain
// reader fills it from topic-filtered eth_getLogs on the chain's stablecoins (and Otterscan's
// ots_ methods for native sends); shared/verdict turns it into findings.

export const PaymentSummarySchema = z.object({
  /** The address paid (EIP-55). */
  address: z.string(),
  /** Non-zero token transfers (and native sends, where read) from the sender to this address. */
  payments: z.number().int(),
  /** When the last one was made (ISO 8601); null when the endpoint gave no block time. */
  lastPaidAt: z.string().nullable(),
  /** The block of the last one (decimal string). */
  lastPaidBlock: z.string(),
  /**
   * On a lookalike: zero-value transfers "from" the sender to it (anyone can emit these, so one
   * was planted in the sender's history). Absent when none.
   */
  zeroValueFromSender: z.number().int().optional(),
});
export type PaymentSummary = z.infer<typeof PaymentSummarySchema>;

export const SenderHistorySchema = z
  .object({
    /** The sender (`from` of the request), EIP-55. */
    address: z.string(),
    /** Distinct addresses the sender paid (non-zero) in what was read. */
    counterparties: z.number().int(),
    /** The sender's payments to the checked address; null when it never paid it. */
    paidRecipient: PaymentSummarySchema.nullable(),
    /**
     * Addresses the sender really paid (non-zero) that share the first 4 and last 4 hex
     * characters (case-insensitive) with the checked address but are not it: the genuine
     * counterparties a poisoning address imitates. Most paid first.
     */
    lookalikes: z.array(PaymentSummarySchema),
    /** Zero-value transfers "from" the sender to the checked address (anyone can emit these). */
    zeroValueToRecipient: z.number().int(),
    /**
     * Zero-value and dust transfers (below 0.01 of a 6-decimal stablecoin) from the checked
     * address to the sender: what a poisoner sends from a lookalike so it shows in the sender's
     * history. Absent in reports made before it was read.
     */
    dustFromRecipient: z.number().int().optional(),
  })
  .describe("The sender's own payments, as read in the window.");
export type SenderHistory = z.infer<typeof SenderHistorySchema>;

export const RecipientHistorySchema = z
  .object({
    /** Token transfers to or from the checked address that were read. */
    transfers: z.number().int(),
    /** Zero-value transfers to or from the checked address. */
    zeroValueTransfers: z.number().int(),
    /** Non-zero transfers below the dust line (0.01 of a 6-decimal stablecoin). */
    dustTransfers: z.number().int(),
    /**
     * Distinct other addresses in those zero-value and dust transfers, leaving out lookalikes of
     * addresses it really transacted with (those are poisoning aimed at it, not by it).
     */
    zeroOrDustCounterparties: z.number().int(),
    /** Where the checked address sent tokens (non-zero), most transfers first, at most 10. */
    sentTo: z.array(z.object({ address: z.string(), transfers: z.number().int() })),
  })
  .describe("The checked address's own token transfers, as read in the window.");
export type RecipientHistory = z.infer<typeof RecipientHistorySchema>;

export const historyStatuses = ["read", "unknown"] as const;

export const ChainHistorySchema = z
  .object({
    /** read: the window was read; unknown: the endpoint refused or failed (error says why). */
    status: z.enum(historyStatuses),
    error: z.string().optional(),
    /** The tokens whose Transfer events were read, e.g. ["USDC", "USDT", "USDbC"]. */
    tokens: z.array(z.string()),
    /** The block window read (decimal strings); null when unknown. */
    fromBlock: z.string().nullable(),
    toBlock: z.string().nullable(),
    /** Native sends of the sender (Otterscan ots_ methods), only when `from` was given. */
    native: z
      .object({
        status: z.enum(["read", "unknown", "not_asked"]),
        /** How many of the sender's latest transactions were read. */
        transactionsRead: z.number().int().optional(),
        error: z.string().optional(),
        /**
         * Of those, the transactions the sender took part in without signing them (a Safe's or an
         * ERC-4337 account's: its ETH goes out in internal calls), and whether the ETH it sent
         * inside them was read (Otterscan's ots_getInternalOperations). Absent when there were none.
         */
        internal: z
          .object({
            status: z.enum(["read", "unknown"]),
            transactions: z.number().int(),
            error: z.string().optional(),
          })
          .optional(),
      })
      .describe("not_asked: no `from`; unknown: the endpoint has no ots_ methods or refused."),
    sender: SenderHistorySchema.nullable(),
    recipient: RecipientHistorySchema.nullable(),
    /**
     * With status read: why the transfers to the checked address were not read (more than one
     * check reads; `recipient` is null then). The sender's payments were read whole.
     */
    recipientError: z.string().optional(),
  })
  .describe(
    "Token history around the check on this chain: Transfer events of the chain's stablecoins from the sender and to or from the checked address, in a bounded block window.",
  );
export type ChainHistory = z.infer<typeof ChainHistorySchema>;
