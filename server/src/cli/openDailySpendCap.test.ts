import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SpendCap } from "@presend/client";
import { afterEach, describe, expect, it } from "vitest";
import { openDailySpendCap } from "./openDailySpendCap";

const dirs: string[] = [];
const ledgerFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-spend-"));
  dirs.push(dir);
  return join(dir, "presend", "spend.sqlite");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** One moment for every run in a test that is not about days, so none straddles UTC midnight. */
const noon = () => new Date("2026-11-28T12:00:00Z");

const reserved = async (cap: SpendCap, amount: bigint, key?: string) => {
  const answer = await cap.reserve(amount, key === undefined ? undefined : { key });
  if (answer.type !== "reserved") throw new Error(`refused: ${answer.message}`);
  return answer.reservation;
};

describe("openDailySpendCap", () => {
  it("counts what every run with the same file reserves against one day's limit", async () => {
    const file = ledgerFile();
    // Two runs (as two processes would) opening the same ledger.
    const first = openDailySpendCap(file, { limit: 25_000n, now: noon });
    const second = openDailySpendCap(file, { limit: 25_000n, now: noon });
    await reserved(first, 10_000n);
    await reserved(second, 10_000n);
    expect(await first.available()).toBe(5_000n);
    const refused = await second.reserve(10_000n);
    expect(refused).toEqual({
      type: "refused",
      message:
        "Daily spend cap reached: $0.02 of $0.025 in USDC used today (UTC) by presend with this config directory; this payment needs $0.01. PRESEND_DAILY_CAP sets the cap.",
    });
    // Reopened later (a new run), the day's spending is still there.
    expect(await openDailySpendCap(file, { limit: 25_000n, now: noon }).available()).toBe(5_000n);
  });

  it("lets many reservations at once pass only up to the limit", async () => {
    const file = ledgerFile();
    const runs = Array.from({ length: 8 }, () =>
      openDailySpendCap(file, { limit: 30_000n, now: noon }),
    );
    const answers = await Promise.all(runs.map((run) => run.reserve(10_000n)));
    expect(answers.filter((answer) => answer.type === "reserved")).toHaveLength(3);
    expect(await runs[0]?.available()).toBe(0n);
  });

  it("counts a payment retried with its payment id once, in any run, at the most asked", async () => {
    const file = ledgerFile();
    const first = openDailySpendCap(file, { limit: 20_000n, now: noon });
    const retry = openDailySpendCap(file, { limit: 20_000n, now: noon });
    const original = await reserved(first, 10_000n, "origin payment-1");
    await original.spend();
    const again = await reserved(retry, 10_000n, "origin payment-1");
    expect(await first.available()).toBe(10_000n);
    // The retry learned nothing was charged this time; the first run's charge keeps it counted.
    await again.release();
    expect(await first.available()).toBe(10_000n);
    await original.release();
    expect(await first.available()).toBe(20_000n);
  });

  it("frees what was released once, and keeps what a run killed while holding left", async () => {
    const file = ledgerFile();
    const cap = openDailySpendCap(file, { limit: 20_000n, now: noon });
    const released = await reserved(cap, 10_000n);
    await released.release();
    await released.release();
    expect(await cap.available()).toBe(20_000n);
    // Reserved, then the run died: never released, so it may have been charged.
    await reserved(openDailySpendCap(file, { limit: 20_000n, now: noon }), 10_000n);
    expect(await cap.available()).toBe(10_000n);
  });

  it("gives back up to what a refund returned of the deposits named, never more", async () => {
    const file = ledgerFile();
    const cap = openDailySpendCap(file, { limit: 200_000n, now: noon });
    await (await reserved(cap, 100_000n, "deposit one")).spend();
    await (await reserved(cap, 50_000n, "deposit two")).spend();
    await reserved(cap, 10_000n, "a check");
    const deposits = [{ key: "deposit two" }, { key: "deposit one" }];
    expect(await cap.refund(deposits, 70_000n)).toBe(70_000n);
    expect(await cap.available()).toBe(110_000n);
    // A later run with the same file (the one `presend close` is) frees the rest of the
    // deposits, and nothing of the check it was not asked about.
    const laterRun = openDailySpendCap(file, { limit: 200_000n, now: noon });
    expect(await laterRun.refund(deposits, 500_000n)).toBe(80_000n);
    expect(await laterRun.available()).toBe(190_000n);
    expect(await laterRun.refund(deposits, 1n)).toBe(0n);
  });

  it("gives back nothing of a deposit counted on an earlier day", async () => {
    const file = ledgerFile();
    let at = new Date("2026-11-28T23:00:00Z");
    const cap = openDailySpendCap(file, { limit: 100_000n, now: () => at });
    await reserved(cap, 100_000n, "deposit");
    at = new Date("2026-11-29T01:00:00Z");
    await reserved(cap, 30_000n, "a check today");
    // Yesterday's deposit no longer holds today's cap: crediting it would lift the cap.
    expect(await cap.refund([{ key: "deposit" }], 60_000n)).toBe(0n);
    expect(await cap.available()).toBe(70_000n);
  });

  it("starts each UTC day afresh, and a reservation counts on the day it was made", async () => {
    const file = ledgerFile();
    let at = new Date("2026-11-28T23:59:30Z");
    const cap = openDailySpendCap(file, { limit: 10_000n, now: () => at });
    const late = await reserved(cap, 10_000n);
    expect(await cap.available()).toBe(0n);
    at = new Date("2026-11-29T00:00:10Z");
    expect(await cap.available()).toBe(10_000n);
    await reserved(cap, 10_000n);
    // Released after midnight, yesterday's reservation frees yesterday, not today.
    await late.release();
    expect(await cap.available()).toBe(0n);
  });

  it("refuses to pay, naming its file, when the ledger cannot be read", async () => {
    const file = ledgerFile();
    await reserved(openDailySpendCap(file, { limit: 10_000n, now: noon }), 1_000n);
    writeFileSync(file, "not a database, but not empty either: a damaged ledger file".repeat(80));
    const cap = openDailySpendCap(file, { limit: 10_000n, now: noon });
    const answer = await cap.reserve(1_000n);
    expect(answer).toMatchObject({ type: "refused", code: "ledger_unreadable" });
    expect(answer.type === "refused" && answer.message).toContain(file);
    expect(answer.type === "refused" && answer.message).toContain("nothing is paid");
    expect(await cap.available()).toBe(0n);
  });

  it("says what to do with a ledger that cannot be opened (a directory in its place), and nothing of the cap's size", async () => {
    const file = ledgerFile();
    mkdirSync(file, { recursive: true });
    const answer = await openDailySpendCap(file, { limit: 10_000n, now: noon }).reserve(1_000n);
    expect(answer).toMatchObject({ type: "refused", code: "ledger_unreadable" });
    const message = answer.type === "refused" ? answer.message : "";
    expect(message).toContain(`The daily spend ledger ${file} cannot be read or written`);
    expect(message).toMatch(/a file you can read and write.*move it away/);
    expect(message).not.toMatch(/PRESEND_|raise|cap/i);
  });
});
