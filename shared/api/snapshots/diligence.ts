import { z } from "zod";
import { LandscapeCategorySchema } from "./landscape";
import { IsoDateTimeSchema, UsdcAmountSchema, WindowSchema } from "./snapshotCommon";

// The diligence digest (GET /diligence): a dated digest, not a live feed.

/**
 * verified: the directory marks it verified and its live documents publish the payTo it is listed
 * with; mismatch: the live documents publish a payTo the directory does not know; unverified: anything
 * else (no live document, or not verified by the directory).
 */
export const verificationStates = ["verified", "unverified", "mismatch"] as const;

export const DiligenceEntrySchema = z.object({
  rank: z.number().int().positive(),
  slug: z.string(),
  name: z.string(),
  category: LandscapeCategorySchema,
  base_url: z.string(),
  settlements_30d: z.number().int().nonnegative(),
  usdc_30d: UsdcAmountSchema,
  min_price_usd: z.number().nonnegative().nullable(),
  /** Share of the category's priced services at or below this price, 0-100; null without a price. */
  price_percentile_in_category: z.number().min(0).max(100).nullable(),
  shared_payout: z.boolean(),
  shared_payout_with: z.array(z.string()),
  verification: z.enum(verificationStates),
  payto: z.array(z.string()),
  payto_rotations_90d: z.number().int().nonnegative(),
});
export type DiligenceEntry = z.infer<typeof DiligenceEntrySchema>;

export const RotatorSchema = z.object({
  slug: z.string(),
  name: z.string(),
  rotations_90d: z.number().int().positive(),
  history: z.array(z.object({ date: z.iso.date(), payto: z.array(z.string()) })),
});
export type Rotator = z.infer<typeof RotatorSchema>;

export const DiligenceSummarySchema = z.object({
  services_listed: z.number().int().nonnegative(),
  services_with_settlements_30d: z.number().int().nonnegative(),
  settlements_30d: z.number().int().nonnegative(),
  usdc_30d: UsdcAmountSchema,
  verified_services: z.number().int().nonnegative(),
  services_sharing_payout: z.number().int().nonnegative(),
  shared_payout_addresses: z.number().int().nonnegative(),
  rotators_90d: z.number().int().nonnegative(),
  window_30d: WindowSchema,
  window_90d: WindowSchema,
});
export type DiligenceSummary = z.infer<typeof DiligenceSummarySchema>;

export const DiligenceSchema = z.object({
  title: z.string(),
  generated_at: IsoDateTimeSchema,
  source: z.string(),
  note: z.string(),
  license: z.string(),
  cite_as: z.string(),
  method: z.array(z.string()),
  summary: DiligenceSummarySchema,
  top_50: z.array(DiligenceEntrySchema).max(50),
  rotators_90d: z.array(RotatorSchema),
});
export type Diligence = z.infer<typeof DiligenceSchema>;
