import { z } from "zod";
import { IsoDateTimeSchema } from "./snapshotCommon";

// The landscape list (GET /landscape), normalized from an x402 service directory.

export const landscapeCategories = [
  "Data",
  "Content",
  "Compute",
  "Finance",
  "Verification",
  "AI",
  "Other",
  "Blockchain",
] as const;
export const LandscapeCategorySchema = z.enum(landscapeCategories);
export type LandscapeCategory = z.infer<typeof LandscapeCategorySchema>;

/** Short network codes; observed values: BSE, SOL, ARB, POL, AVX and BSP. */
export const networkCodes = [
  "BSE",
  "BSP",
  "SOL",
  "SLD",
  "ARB",
  "POL",
  "AVX",
  "ETH",
  "OPT",
] as const;
export const NetworkCodeSchema = z.enum(networkCodes);
export type NetworkCode = z.infer<typeof NetworkCodeSchema>;

export const serviceStatuses = ["online", "degraded", "offline"] as const;
export const complianceGrades = ["A", "C", "unknown"] as const;

export const LandscapeServiceSchema = z.object({
  slug: z.string().min(1),
  name: z.string(),
  description: z.string(),
  base_url: z.string(),
  website_url: z.string().nullable(),
  category: LandscapeCategorySchema,
  source: z.string(),
  status: z.enum(serviceStatuses),
  verified: z.boolean(),
  payment_ready: z.boolean(),
  endpoint_count: z.number().int().nonnegative(),
  min_price_usd: z.number().nonnegative().nullable(),
  networks: z.array(NetworkCodeSchema),
  uptime_24h: z.number().min(0).max(100),
  avg_response_time_ms: z.number().nonnegative().nullable(),
  created_at: IsoDateTimeSchema,
  compliance_grade: z.enum(complianceGrades),
});
export type LandscapeService = z.infer<typeof LandscapeServiceSchema>;

export const LandscapeSchema = z.object({
  title: z.string(),
  captured_at: IsoDateTimeSchema,
  source: z.string(),
  license: z.string(),
  attribution: z.string(),
  cite_as: z.string(),
  note: z.string(),
  services: z.array(LandscapeServiceSchema),
});
export type Landscape = z.infer<typeof LandscapeSchema>;
