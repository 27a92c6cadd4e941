import { readFileSync, rmSync } from "node:fs";
import type { DepositLedgerState, DepositLedgerStore } from "@presend/client";
import { z } from "zod";
import { writeFileWhole } from "./writeFileWhole";

const units = z.string().regex(/^\d{1,30}$/);

const DepositLedgerStateSchema = z.object({
  deposits: z.array(z.string().min(1).max(200)).max(1_000),
  unspent: units,
  unspentLanded: units,
});

/**
 * The CLI's account of its channel's deposits, beside the channel's state (`deposits.json`), so
 * the run that closes the channel gives the daily cap back what came back of deposits earlier
 * runs made. Used only under the channel's lock. A file that is damaged reads as none: the cap
 * then keeps those deposits counted for the day, the payer's side.
 * @example const store = fileDepositLedgerStore(join(configDir, "channels", "deposits.json"));
 */
export function fileDepositLedgerStore(file: string): DepositLedgerStore {
  return {
    async read() {
      let stored: unknown;
      try {
        stored = JSON.parse(readFileSync(file, "utf8"));
      } catch {
        // None yet, or not JSON: read as none.
        return null;
      }
      const parsed = DepositLedgerStateSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async write(state: DepositLedgerState | null) {
      if (state === null) rmSync(file, { force: true });
      else writeFileWhole(file, `${JSON.stringify(state)}\n`);
    },
  };
}
