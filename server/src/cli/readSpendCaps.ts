import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { parseUnits } from "viem";
import { z } from "zod";

/** Default spend cap of one run or session: ten checks or two deep checks, one default deposit. */
export const defaultSpendCapUsd = "0.10";

/** Default daily cap across every run and session with one config directory: the extension's. */
export const defaultDailySpendCapUsd = "1.00";

const usd = (name: string, fallback: string) =>
  z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, `${name} must be USD like ${fallback}`)
    .default(fallback);

const SpendCapsSchema = z.object({
  PRESEND_SPEND_CAP: usd("PRESEND_SPEND_CAP", defaultSpendCapUsd),
  PRESEND_DAILY_CAP: usd("PRESEND_DAILY_CAP", defaultDailySpendCapUsd),
});

/** What may be spent, in USDC base units; a channel deposit counts whole against both. */
export type SpendCaps = {
  /** PRESEND_SPEND_CAP: what one CLI run or one MCP session may spend in total. */
  session: bigint;
  /** PRESEND_DAILY_CAP: what all runs and sessions with one config directory may spend a day (UTC). */
  daily: bigint;
  /** The largest one channel deposit may be: what both caps allow. */
  maxDeposit: bigint;
};

/**
 * PRESEND_SPEND_CAP and PRESEND_DAILY_CAP in USDC base units (an empty value is the default).
 * Throws ConfigurationError naming the setting when one is malformed.
 * @example const { session, daily } = readSpendCaps(process.env); // 100000n, 1000000n by default
 */
export function readSpendCaps(env: Record<string, string | undefined>): SpendCaps {
  const parsed = SpendCapsSchema.safeParse({
    PRESEND_SPEND_CAP: env.PRESEND_SPEND_CAP || undefined,
    PRESEND_DAILY_CAP: env.PRESEND_DAILY_CAP || undefined,
  });
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  const session = parseUnits(parsed.data.PRESEND_SPEND_CAP, 6);
  const daily = parseUnits(parsed.data.PRESEND_DAILY_CAP, 6);
  return { session, daily, maxDeposit: session < daily ? session : daily };
}
