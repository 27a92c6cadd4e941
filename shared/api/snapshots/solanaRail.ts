import { z } from "zod";
import {
  DocShapeSchema,
  IsoDateTimeSchema,
  SourceRefSchema,
  UsdcAmountSchema,
  WindowSchema,
} from "./snapshotCommon";

// The Solana-rail measurement (GET /solana-rail): the Solana payTo addresses services
// declare and the USDC their token accounts received over 30 days.

export const SolanaRailAddressSchema = z.object({
  address: z.string(),
  services: z.array(z.string()),
  /** Successful transactions touching the address's USDC token accounts in the window. */
  tx_30d: z.number().int().nonnegative(),
  usdc_inflow_30d: UsdcAmountSchema,
  /** Of those, the transactions that increased the USDC balance. */
  usdc_inflow_tx: z.number().int().nonnegative(),
});
export type SolanaRailAddress = z.infer<typeof SolanaRailAddressSchema>;

const RunningTotalsSchema = z.object({
  tx_30d: z.number().int().nonnegative(),
  usdc_inflow_30d: UsdcAmountSchema,
});

export const LiveDeltaSchema = z.object({
  as_of: IsoDateTimeSchema,
  method: z.string(),
  delta_tx: z.number().int(),
  /** Signed human USDC amount, e.g. "-1.5". */
  delta_usdc: z.string().regex(/^-?\d+(\.\d{1,6})?$/),
  addresses_with_new_activity: z.number().int().nonnegative(),
  detail: z.array(
    z.object({
      address: z.string(),
      delta_tx: z.number().int(),
      delta_usdc: z.string().regex(/^-?\d+(\.\d{1,6})?$/),
    }),
  ),
  quiet: z.boolean(),
  running_totals_at_check: RunningTotalsSchema,
});
export type LiveDelta = z.infer<typeof LiveDeltaSchema>;

export const SolanaRailSchema = z.object({
  title: z.string(),
  what: z.string(),
  generated_at: IsoDateTimeSchema,
  source: z.string(),
  note: z.string(),
  window: WindowSchema,
  sources: z.array(SourceRefSchema),
  method: z.array(z.string()),
  headline: z.object({
    services_declaring_solana: z.number().int().nonnegative(),
    payto_addresses: z.number().int().nonnegative(),
    addresses_with_inflow: z.number().int().nonnegative(),
    tx_30d: z.number().int().nonnegative(),
    usdc_inflow_30d: UsdcAmountSchema,
    invalid_addresses: z.array(
      z.object({ address: z.string(), declared_by: z.array(z.string()), reason: z.string() }),
    ),
    shared_payto_clusters: z.array(
      z.object({ address: z.string(), services: z.array(z.string()) }),
    ),
  }),
  addresses: z.array(SolanaRailAddressSchema),
  zero_activity_addresses: z.array(z.string()),
  top_by_usdc_inflow_30d: z.array(
    z.object({
      address: z.string(),
      services: z.array(z.string()),
      usdc_inflow_30d: UsdcAmountSchema,
    }),
  ),
  /** The directory's Solana claims against what the live documents declare. */
  vs_directory_measurement: z.object({
    directory_lists_solana: z.number().int().nonnegative(),
    live_doc_declares_solana: z.number().int().nonnegative(),
    listed_not_declared: z.array(z.string()),
    declared_not_listed: z.array(z.string()),
  }),
  doc_shape_fragmentation: z.array(
    z.object({ doc_shape: DocShapeSchema, services: z.number().int().nonnegative() }),
  ),
  measurement_quality: z.object({
    token_accounts_read: z.number().int().nonnegative(),
    signatures_read: z.number().int().nonnegative(),
    transactions_read: z.number().int().nonnegative(),
    failed_transactions_skipped: z.number().int().nonnegative(),
    notes: z.array(z.string()),
  }),
  license: z.string(),
  cite_as: z.string(),
  last_delta_check: IsoDateTimeSchema.nullable(),
  live_deltas: z.array(LiveDeltaSchema),
});
export type SolanaRail = z.infer<typeof SolanaRailSchema>;
