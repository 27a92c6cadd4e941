import { z } from "zod";
import { addressPattern } from "../address/addressPattern";
import { chainNames } from "../chains/chains";

export const listCategories = ["scam", "drainer", "exchange-collector", "protocol"] as const;
export const ListCategorySchema = z.enum(listCategories);
export type ListCategory = z.infer<typeof ListCategorySchema>;

/**
 * One line of an operator's address list (a JSON Lines file): who the address is, on which
 * chains, and where the operator got it from under which licence, as of which date.
 */
export const AddressListEntrySchema = z.strictObject({
  address: z.string().regex(addressPattern, "must be 0x followed by 40 hex characters"),
  chains: z.array(z.enum(chainNames)).min(1),
  label: z.string().min(1).max(120),
  category: ListCategorySchema,
  source: z.string().min(1).max(200),
  licence: z.string().min(1).max(80),
  date: z.iso.date(),
});
export type AddressListEntry = z.infer<typeof AddressListEntrySchema>;

/** A list the check consulted, as the report names it. */
export const ConsultedListSchema = z.object({
  source: z.string(),
  licence: z.string(),
  /** The newest entry date of this source (YYYY-MM-DD). */
  date: z.string(),
  entries: z.number().int(),
});
export type ConsultedList = z.infer<typeof ConsultedListSchema>;

/** A listed address the check met: the checked address itself, or where it sends its tokens. */
export const ListMatchSchema = z.object({
  /** recipient: the checked address is listed; sweeps-to: it sent tokens to a listed address. */
  role: z.enum(["recipient", "sweeps-to"]),
  /** The chain the match was made on. */
  chain: z.enum(chainNames),
  address: z.string(),
  label: z.string(),
  category: ListCategorySchema,
  /** The chains the list names for this address. */
  listedOn: z.array(z.enum(chainNames)),
  source: z.string(),
  date: z.string(),
});
export type ListMatch = z.infer<typeof ListMatchSchema>;

export const ListsReportSchema = z
  .object({
    consulted: z.array(ConsultedListSchema),
    matches: z.array(ListMatchSchema),
  })
  .describe("The operator's address lists this check consulted, and what matched.");
export type ListsReport = z.infer<typeof ListsReportSchema>;
