import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";
import { writeFileWhole } from "./writeFileWhole";

/** A payment a run sent, written down before it left, until the run has told its outcome. */
export type UnansweredPayment = {
  /** The run that sent it. */
  pid: number;
  command: "check" | "deep";
  address: string;
  chain: string;
  from: string | null;
  /** The authorization's nonce: the id `presend receipt` fetches the report by. */
  nonce: string;
  /** The x402 payment id a retry is charged once with (null over a channel). */
  paymentId: string | null;
  /** When it was sent (ISO 8601). */
  sentAt: string;
};

const UnansweredPaymentSchema = z.object({
  pid: z.number().int().positive(),
  command: z.enum(["check", "deep"]),
  address: z.string(),
  chain: z.string(),
  from: z.string().nullable(),
  nonce: z.string().regex(bytes32Pattern),
  paymentId: z.string().nullable(),
  sentAt: z.string(),
});

/**
 * The payments of `presend` runs that were sent and not yet answered, one file each in `dir`
 * (so runs started at once never write one file together). A run ended by SIGKILL (an OOM
 * killer, a CI job's hard timeout) cannot say that its payment went out, nor its receipt id,
 * which no one can compute afterwards (it includes a random payment id): without this note the
 * server charged it and the payer could never fetch its report. A later run finds the notes of
 * runs no longer alive (`takeAbandoned`) and names their receipts.
 * @example const notes = unansweredPayments(join(configDir, "unanswered"));
 */
export function unansweredPayments(dir: string) {
  const fileOf = (nonce: string) => join(dir, `${nonce.toLowerCase()}.json`);
  return {
    /**
     * Writes `payment` down before it is sent. A note that cannot be written (a full disk) is
     * skipped: the run still tells the outcome itself unless it is killed.
     */
    note(payment: Omit<UnansweredPayment, "pid" | "sentAt">): void {
      const noted: UnansweredPayment = {
        ...payment,
        pid: process.pid,
        sentAt: new Date().toISOString(),
      };
      try {
        writeFileWhole(fileOf(payment.nonce), `${JSON.stringify(noted)}\n`);
      } catch {
        // Best effort, as said above.
      }
    },
    /** The run told this payment's outcome (or its receipt id): the note goes. */
    answered(nonce: string): void {
      rmSync(fileOf(nonce), { force: true });
    },
    /**
     * The notes left by runs that are gone (killed before they told the outcome), removed as they
     * are returned: the caller tells each once. A note that cannot be read is left alone.
     */
    takeAbandoned(): UnansweredPayment[] {
      let names: string[];
      try {
        names = readdirSync(dir).filter((name) => name.endsWith(".json"));
      } catch {
        return [];
      }
      const abandoned: UnansweredPayment[] = [];
      for (const name of names) {
        const file = join(dir, name);
        let parsed: ReturnType<typeof UnansweredPaymentSchema.safeParse>;
        try {
          parsed = UnansweredPaymentSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
        } catch {
          continue;
        }
        if (!parsed.success || isRunning(parsed.data.pid)) continue;
        try {
          rmSync(file);
        } catch {
          // Another run took it first: that run tells it.
          continue;
        }
        abandoned.push(parsed.data);
      }
      return abandoned.sort((a, b) => a.sentAt.localeCompare(b.sentAt));
    },
  };
}

/**
 * Whether the process `pid` still runs (a run paying at this moment). This process's own pid
 * names a run that is gone (a container's runs reuse the same few pids).
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
