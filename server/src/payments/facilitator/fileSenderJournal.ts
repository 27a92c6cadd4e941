import { mkdir, open, readFile, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/);
const Units = z.string().regex(/^\d+$/);

/** One unmined transaction of the settlement sender: enough to send it again or replace it. */
export const SenderJournalEntrySchema = z.object({
  nonce: z.number().int().nonnegative(),
  request: z.object({ to: Hex, data: Hex, gas: Units.optional() }),
  /** The signed bytes last broadcast at this nonce. */
  raw: Hex,
  /** Every hash signed at this nonce, oldest first. */
  hashes: z.array(z.string().regex(bytes32Pattern)),
  fees: z.object({ maxFeePerGas: Units, maxPriorityFeePerGas: Units }).optional(),
});
export type SenderJournalEntry = z.infer<typeof SenderJournalEntrySchema>;

/** Where the settlement sender keeps its unmined transactions across a restart. */
export type SenderJournal = {
  read(): Promise<SenderJournalEntry[]>;
  /** Replaces the journal with `entries`; durable when it resolves. */
  write(entries: SenderJournalEntry[]): Promise<void>;
};

/** A journal its owner closes at shutdown: later writes (a watcher still ticking) change nothing. */
export type ClosableSenderJournal = SenderJournal & {
  /** Waits for the write in progress, then stops writing. */
  close(): Promise<void>;
};

/**
 * The settlement sender's journal in one JSON file, written whole to a temporary file, synced and
 * renamed over the old one: a crash leaves the old journal or the new, never half of one. A
 * missing file is an empty journal. Once closed it writes nothing more: the sender's watcher
 * outlives a stopped server, and its file (or the directory holding it) may be gone by then.
 * @example const journal = fileSenderJournal("/data/facilitator-journal.json");
 */
export function fileSenderJournal(path: string): ClosableSenderJournal {
  let closed = false;
  let writing: Promise<unknown> = Promise.resolve();
  const writeFile = async (entries: SenderJournalEntry[]) => {
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    const file = await open(temporary, "w", 0o600);
    try {
      await file.writeFile(JSON.stringify(entries));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
  };
  return {
    async read() {
      let text: string;
      try {
        text = await readFile(path, "utf8");
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      return z.array(SenderJournalEntrySchema).parse(JSON.parse(text));
    },
    write(entries) {
      if (closed) return Promise.resolve();
      const written = writeFile(entries);
      writing = written.catch(() => {});
      return written;
    },
    async close() {
      closed = true;
      await writing;
    },
  };
}
