import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileSenderJournal, type SenderJournalEntry } from "./fileSenderJournal";

const entry = (nonce: number): SenderJournalEntry => ({
  nonce,
  request: { to: `0x${"11".repeat(20)}`, data: "0xabcd", gas: "60000" },
  raw: "0x02f8",
  hashes: [`0x${String(nonce).padStart(2, "0").repeat(32)}`],
  fees: { maxFeePerGas: "2000000000", maxPriorityFeePerGas: "1000000000" },
});

const freshDir = () => mkdtempSync(join(tmpdir(), "presend-journal-test-"));

describe("fileSenderJournal", () => {
  it("reads back what it wrote, the whole list replaced each time, no temporary file left", async () => {
    const dir = freshDir();
    const journal = fileSenderJournal(join(dir, "journal.json"));
    await journal.write([entry(1), entry(2)]);
    expect(await journal.read()).toEqual([entry(1), entry(2)]);
    await journal.write([entry(2)]);
    expect(await journal.read()).toEqual([entry(2)]);
    expect(readdirSync(dir)).toEqual(["journal.json"]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("reads a missing file as an empty journal, and refuses a file that is not one", async () => {
    const dir = freshDir();
    const file = join(dir, "journal.json");
    expect(await fileSenderJournal(file).read()).toEqual([]);
    writeFileSync(file, JSON.stringify([{ nonce: -1 }]));
    await expect(fileSenderJournal(file).read()).rejects.toThrow();
    rmSync(dir, { recursive: true, force: true });
  });

  it("once closed writes nothing more, not even the directory its owner removed", async () => {
    const dir = freshDir();
    const file = join(dir, "journal.json");
    const journal = fileSenderJournal(file);
    // A write in progress when the owner closes is finished first.
    const inProgress = journal.write([entry(1)]);
    await journal.close();
    await inProgress;
    expect(await journal.read()).toEqual([entry(1)]);
    await journal.write([]);
    expect(await journal.read()).toEqual([entry(1)]);
    // The owner removes its data dir after stopping; a watcher's late write must not bring it back.
    rmSync(dir, { recursive: true, force: true });
    await journal.write([entry(2)]);
    expect(existsSync(dir)).toBe(false);
  });
});
