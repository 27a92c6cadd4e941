import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { parseUnits } from "viem";
import { z } from "zod";

/** Default spend cap: ten checks or two deep checks, and one default channel deposit of checks. */
export const defaultSpendCapUsd = "0.10";

const SpendCapSchema = z
  .string()
  .regex(/^\d+(\.\d{1,6})?$/, "PRESEND_SPEND_CAP must be USD like 0.10")
  .default(defaultSpendCapUsd);

/**
 * PRESEND_SPEND_CAP in USDC base units: what one CLI run or one MCP session may spend in total,
 * a channel deposit counted whole (it is the most one deposit may put in). Throws
 * ConfigurationError when malformed.
 * @example const cap = readSpendCap(process.env); // 100000n by default
 */
export function readSpendCap(env: Record<string, string | undefined>): bigint {
  const parsed = SpendCapSchema.safeParse(env.PRESEND_SPEND_CAP || undefined);
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  return parseUnits(parsed.data, 6);
}
