import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { InputError } from "@presend/shared/errors/InputError";
import { z } from "zod";
import { stableJson } from "../stableJson";

/** The payTo addresses each service was seen with on one date. */
export const PayToCaptureSchema = z.object({
  date: z.iso.date(),
  services: z.record(z.string(), z.array(z.string())),
});
export type PayToCapture = z.infer<typeof PayToCaptureSchema>;

/** Dated captures of observed payTo addresses, the memory rotation counts are computed from. */
export interface PayToHistory {
  captures(fromDate: string, toDate: string): Promise<PayToCapture[]>;
  record(capture: PayToCapture): Promise<void>;
}

/**
 * Captures stored as `<dir>/<YYYY-MM-DD>.json`; `readOnly` keeps recorded fixtures untouched.
 * @example const history = fileHistory({ dir: "snapshots/history/payto" });
 */
export function fileHistory(options: { dir: string; readOnly?: boolean }): PayToHistory {
  return {
    async captures(fromDate, toDate) {
      const names = await readdir(options.dir).catch(() => [] as string[]);
      const dates = names
        .filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name))
        .map((name) => name.slice(0, 10))
        .filter((date) => date >= fromDate && date <= toDate)
        .sort();
      const captures: PayToCapture[] = [];
      for (const date of dates) {
        const file = join(options.dir, `${date}.json`);
        const parsed = PayToCaptureSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
        if (!parsed.success) {
          throw new InputError(
            `${file}: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`,
          );
        }
        captures.push(parsed.data);
      }
      return captures;
    },
    async record(capture) {
      if (options.readOnly) return;
      await mkdir(options.dir, { recursive: true });
      await writeFile(join(options.dir, `${capture.date}.json`), stableJson(capture));
    },
  };
}
