import { z } from "zod";
import {
  DocShapeSchema,
  EvmAddressSchema,
  InflowSchema,
  IsoDateTimeSchema,
  SourceRefSchema,
  WindowSchema,
} from "./snapshotCommon";

// The Arbitrum-rail measurement (GET /arbitrum-rail): which services declare Arbitrum
// payment, and how much USDC their payTo addresses received on Arbitrum versus Base.

const BlockRangeSchema = z.object({ from_block: z.number().int(), to_block: z.number().int() });

export const ArbitrumRailAddressSchema = z.object({
  address: EvmAddressSchema,
  declared_by: z.array(z.string()),
  arbitrum_30d: InflowSchema,
  base_30d: InflowSchema,
});
export type ArbitrumRailAddress = z.infer<typeof ArbitrumRailAddressSchema>;

export const ArbitrumRailServiceSchema = z.object({
  slug: z.string(),
  base_url: z.string(),
  dir_status: z.enum(["online", "degraded", "offline"]),
  /** The directory lists Arbitrum among the service's networks. */
  dir_lists_arbitrum: z.boolean(),
  live_doc_reachable: z.boolean(),
  live_doc_declares_arbitrum: z.boolean(),
  doc_shape: DocShapeSchema,
  payto_published: z.array(EvmAddressSchema),
});
export type ArbitrumRailService = z.infer<typeof ArbitrumRailServiceSchema>;

const ChainTotalsSchema = z.object({
  tx: z.number().int().nonnegative(),
  usdc: z.string(),
  distinct_senders: z.number().int().nonnegative(),
  addresses_with_inflow: z.number().int().nonnegative(),
});

export const ArbitrumRailSchema = z.object({
  title: z.string(),
  what: z.string(),
  generated_at: IsoDateTimeSchema,
  source: z.string(),
  note: z.string(),
  window: WindowSchema.extend({ arbitrum: BlockRangeSchema, base: BlockRangeSchema }),
  sources: z.array(SourceRefSchema),
  method: z.array(z.string()),
  headline: z.object({
    services_listed: z.number().int().nonnegative(),
    /** The directory or the live documents declare Arbitrum for the service. */
    services_declaring_arbitrum: z.number().int().nonnegative(),
    /** Of the listed services, those whose live documents answered. */
    services_reachable: z.number().int().nonnegative(),
    services_live_doc_declares_arbitrum: z.number().int().nonnegative(),
    payto_addresses: z.number().int().nonnegative(),
    arbitrum_30d: ChainTotalsSchema,
    base_30d: ChainTotalsSchema,
  }),
  /** The funnel from "listed" down to "received USDC on Arbitrum", one step per entry. */
  cascade: z.array(z.object({ step: z.string(), services: z.number().int().nonnegative() })),
  /** How to read the numbers, in plain sentences. */
  read: z.array(z.string()),
  /** Directory claim vs live document vs chain, per service. */
  triangulation: z.object({
    dir_and_doc_and_chain: z.array(z.string()),
    dir_only: z.array(z.string()),
    doc_only: z.array(z.string()),
    chain_without_declaration: z.array(z.string()),
  }),
  addresses: z.array(ArbitrumRailAddressSchema),
  services: z.array(ArbitrumRailServiceSchema),
  license: z.string(),
  cite_as: z.string(),
});
export type ArbitrumRail = z.infer<typeof ArbitrumRailSchema>;
