import { join } from "node:path";
import { combineSpendCaps, createSessionSpendCap, type SpendCap } from "@presend/client";
import { openDailySpendCap } from "./openDailySpendCap";
import type { SpendCaps } from "./readSpendCaps";

/**
 * What a CLI run or an MCP session may pay: its own cap (PRESEND_SPEND_CAP) and, shared with
 * every run and session using the same config directory, the day's (PRESEND_DAILY_CAP, kept in
 * `spend.sqlite` there). A payment must fit both.
 * @example const spendCap = openSpendCaps(readSpendCaps(process.env), configDir);
 */
export function openSpendCaps(caps: SpendCaps, configDir: string): SpendCap {
  return combineSpendCaps([
    createSessionSpendCap(caps.session),
    openDailySpendCap(join(configDir, "spend.sqlite"), { limit: caps.daily }),
  ]);
}
