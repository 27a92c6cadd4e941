import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { unansweredPayments } from "./unansweredPayments";

const payment = (nonce: string) => ({
  command: "check" as const,
  address: "0x000000000000000000000000000000000000dEaD",
  chain: "base",
  from: null,
  nonce,
  paymentId: null,
});
const nonceA = `0x${"a".repeat(64)}`;
const nonceB = `0x${"b".repeat(64)}`;

/** The pid of a process that has ended. */
const endedPid = () => spawnSync(process.execPath, ["-e", ""]).pid ?? 0;

describe("unansweredPayments", () => {
  const dirs: string[] = [];
  const notesDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-unanswered-"));
    dirs.push(dir);
    return join(dir, "unanswered");
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps a note until the run answers it", () => {
    const dir = notesDir();
    const notes = unansweredPayments(dir);
    notes.note(payment(nonceA));
    expect(readdirSync(dir)).toEqual([`${nonceA}.json`]);
    notes.answered(nonceA);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("gives the notes of runs that are gone once, and leaves those of runs still paying", () => {
    const dir = notesDir();
    const notes = unansweredPayments(dir);
    notes.note(payment(nonceA));
    notes.note(payment(nonceB));
    // A's run ended without answering it; B's (the parent of this test, say) is still running.
    const rewrite = (nonce: string, pid: number) => {
      const file = join(dir, `${nonce}.json`);
      writeFileSync(file, JSON.stringify({ ...payment(nonce), pid, sentAt: "2026-01-01T00:00Z" }));
    };
    rewrite(nonceA, endedPid());
    rewrite(nonceB, process.ppid);
    expect(notes.takeAbandoned()).toMatchObject([{ nonce: nonceA, command: "check" }]);
    expect(notes.takeAbandoned()).toEqual([]);
    expect(readdirSync(dir)).toEqual([`${nonceB}.json`]);
  });

  it("a note of this very pid is a run gone (a container reuses pids); a damaged note is left alone", () => {
    const dir = notesDir();
    const notes = unansweredPayments(dir);
    notes.note(payment(nonceA));
    writeFileSync(join(dir, `${nonceB}.json`), "{half");
    expect(notes.takeAbandoned()).toMatchObject([{ nonce: nonceA, pid: process.pid }]);
    expect(readdirSync(dir)).toEqual([`${nonceB}.json`]);
  });

  it("no directory yet: nothing abandoned; a note it cannot write is skipped, not thrown", () => {
    const dir = notesDir();
    expect(unansweredPayments(dir).takeAbandoned()).toEqual([]);
    writeFileSync(dir, "a file where the directory should be");
    expect(() => unansweredPayments(dir).note(payment(nonceA))).not.toThrow();
  });
});
