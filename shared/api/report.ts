import { z } from "zod";
import { chainNames } from "../chains/chains";

// The report shape (spec §2.2, DESIGN §3). Server, CLI and extension all parse with these schemas,
// so a field added here is a field every client sees.

export const levels = ["ok", "caution", "warn", "danger"] as const;
export const LevelSchema = z.enum(levels);
export type Level = z.infer<typeof LevelSchema>;

export const ChainNameSchema = z.enum(chainNames);

export const checksumStatuses = ["valid", "missing", "invalid"] as const;
export const ChecksumSchema = z.object({
  /** valid: mixed case and correct; missing: one case, typos undetectable; invalid: mixed case, wrong. */
  status: z.enum(checksumStatuses),
  message: z.string(),
});
export type Checksum = z.infer<typeof ChecksumSchema>;

export const BalanceSchema = z.object({
  /** Base units as a decimal string (bigint-safe). */
  raw: z.string(),
  decimals: z.number().int(),
  /** Human form, e.g. "12.5". */
  formatted: z.string(),
  symbol: z.string(),
});
export type Balance = z.infer<typeof BalanceSchema>;

export const GasSchema = z.object({
  gasPriceWei: z.string(),
  /** Cost of a plain native transfer (21000 gas) at the current gas price. */
  nativeTransferCost: BalanceSchema,
  /** Cost of a typical ERC-20 transfer (65000 gas) at the current gas price. */
  tokenTransferCost: BalanceSchema,
});
export type Gas = z.infer<typeof GasSchema>;

export const addressKinds = ["eoa", "eip7702-delegated", "safe", "token", "contract"] as const;
export const AddressKindSchema = z.enum(addressKinds);
export type AddressKind = z.infer<typeof AddressKindSchema>;

/** Facts about one address on one chain. When status is "unavailable" the facts are null. */
export const ChainFactsSchema = z.object({
  name: ChainNameSchema,
  chainId: z.number().int(),
  status: z.enum(["ok", "unavailable"]),
  /** Why the chain could not be read (only when unavailable). */
  error: z.string().optional(),
  isContract: z.boolean().nullable(),
  kind: AddressKindSchema.nullable(),
  /** EIP-7702 delegate, when kind is eip7702-delegated. */
  delegate: z.string().optional(),
  /** Nonce: the number of transactions the address has sent. */
  outgoingTxs: z.number().int().nullable(),
  native: BalanceSchema.nullable(),
  usdc: BalanceSchema.nullable(),
  usdt: BalanceSchema.nullable(),
  /** Bridged USDC variant (USDbC / USDC.e), on chains that have one. */
  usdcBridged: BalanceSchema.nullable().optional(),
  gas: GasSchema.nullable(),
  blockNumber: z.string().nullable(),
});
export type ChainFacts = z.infer<typeof ChainFactsSchema>;

export const ReasonSchema = z.object({
  /** Stable machine code, e.g. "stablecoin_contract", "fresh_address". */
  code: z.string(),
  level: LevelSchema,
  message: z.string(),
  /** The chain the reason is about, when it is about one. */
  chain: ChainNameSchema.optional(),
});
export type Reason = z.infer<typeof ReasonSchema>;

export const TokenMismatchSchema = z.object({
  code: z.enum(["token_contract", "stablecoin_elsewhere", "bridged_usdc"]),
  message: z.string(),
  chains: z.array(ChainNameSchema),
});
export type TokenMismatch = z.infer<typeof TokenMismatchSchema>;

export const VerdictGasSchema = z.object({
  /** One sentence about what sending costs on the target chain, or why it is unknown. */
  summary: z.string(),
  nativeTransferCost: BalanceSchema.nullable(),
  tokenTransferCost: BalanceSchema.nullable(),
});

export const VerdictSchema = z.object({
  level: LevelSchema,
  headline: z.string(),
  /** One actionable sentence. */
  next: z.string(),
  gas: VerdictGasSchema,
  reasons: z.array(ReasonSchema),
});
export type Verdict = z.infer<typeof VerdictSchema>;

export const DeepVerdictSchema = VerdictSchema.extend({
  tokenMismatch: z.array(TokenMismatchSchema),
  /** Chains where the address is active although it is not active on the target chain. */
  wrongNetwork: z.object({ flagged: z.boolean(), activeOn: z.array(ChainNameSchema) }),
});
export type DeepVerdict = z.infer<typeof DeepVerdictSchema>;

export const ReportSchema = z.object({
  address: z.string(),
  checksum: ChecksumSchema,
  chain: ChainFactsSchema,
  verdict: VerdictSchema,
  report: z.string(),
  checkedAt: z.string(),
});
export type Report = z.infer<typeof ReportSchema>;

export const DeepReportSchema = ReportSchema.extend({
  verdict: DeepVerdictSchema,
  others: z.array(ChainFactsSchema),
});
export type DeepReport = z.infer<typeof DeepReportSchema>;

export const CheckRequestSchema = z.object({
  address: z.string(),
  chain: ChainNameSchema.default("base"),
});
export type CheckRequest = z.infer<typeof CheckRequestSchema>;
