import { z } from "zod";
import { addressPattern } from "../../address/addressPattern";

// Pieces every snapshot document shares (dated, CC BY 4.0, not live feeds).

/** The license every snapshot document is published under. */
export const snapshotLicense = "CC BY 4.0";

/** What the documents built from the committed fixtures must say about themselves. */
export const demonstrationNote =
  "demonstration data from local fixtures; not a measurement of the live x402 landscape";

export const IsoDateTimeSchema = z.iso.datetime({ offset: true });

/** A USDC amount in human form with up to 6 decimals, e.g. "12.5" (string: bigint-safe). */
export const UsdcAmountSchema = z.string().regex(/^\d+(\.\d{1,6})?$/);

export const EvmAddressSchema = z.string().regex(addressPattern);

/** The measurement window: [from, to) in UTC, `days` long. */
export const WindowSchema = z.object({
  from: IsoDateTimeSchema,
  to: IsoDateTimeSchema,
  days: z.number().int().positive(),
});
export type Window = z.infer<typeof WindowSchema>;

/** Where a document's inputs came from; `license`/`attribution` are kept for third-party data. */
export const SourceRefSchema = z.object({
  name: z.string(),
  url: z.string(),
  role: z.string(),
  license: z.string().nullable(),
  attribution: z.string().nullable(),
});
export type SourceRef = z.infer<typeof SourceRefSchema>;

/** Tx count, USDC received and distinct senders of one address over a window. */
export const InflowSchema = z.object({
  tx: z.number().int().nonnegative(),
  usdc: UsdcAmountSchema,
  distinct_senders: z.number().int().nonnegative(),
});
export type Inflow = z.infer<typeof InflowSchema>;

/** How a service's live discovery documents are shaped (what a crawler has to understand). */
export const docShapes = [
  "x402-v2-items",
  "x402-v1-resources",
  "openapi-payment-info",
  "challenge-only",
  "none",
] as const;
export const DocShapeSchema = z.enum(docShapes);
export type DocShape = z.infer<typeof DocShapeSchema>;
