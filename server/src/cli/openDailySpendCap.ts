import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { SpendCap } from "@presend/client";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import Database from "better-sqlite3";

/** A payment's row: the most asked for it, and how many reservations (in any process) hold it. */
type Row = { amount: bigint; holders: bigint };

/** How long one run waits for another's ledger write (each takes a millisecond or so). */
const busyTimeoutMs = 5_000;

/** The UTC day a payment counts against, as 2026-11-28. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A daily cap kept in a SQLite file (`spend.sqlite` in the config directory) and shared by every
 * CLI run and MCP session that uses it: what they reserve, keyed like the session cap, counts
 * against `limit` for the UTC day it was reserved on. Each reservation is one transaction, so
 * runs started at once cannot all pass. A run killed while holding a payment leaves it counted
 * (it may have been charged): the ledger errs on the payer's side. A ledger that cannot be read
 * or written refuses to pay, naming its file.
 * @example const daily = openDailySpendCap(join(configDir, "spend.sqlite"), { limit: 1_000_000n });
 */
export function openDailySpendCap(
  file: string,
  options: { limit: bigint; now?: () => Date },
): Required<SpendCap> {
  const now = options.now ?? (() => new Date());
  let opened: Database.Database | null = null;
  const database = () => {
    if (opened) return opened;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const db = new Database(file, { timeout: busyTimeoutMs });
    db.defaultSafeIntegers(true);
    db.exec(`CREATE TABLE IF NOT EXISTS spend (
      day TEXT NOT NULL,
      key TEXT NOT NULL,
      amount INTEGER NOT NULL,
      holders INTEGER NOT NULL,
      PRIMARY KEY (day, key)
    )`);
    // Earlier days no longer limit anything.
    db.prepare("DELETE FROM spend WHERE day < ?").run(utcDay(now()));
    opened = db;
    return db;
  };
  const usedOn = (db: Database.Database, day: string) =>
    (
      db.prepare("SELECT COALESCE(SUM(amount), 0) AS used FROM spend WHERE day = ?").get(day) as {
        used: bigint;
      }
    ).used;
  /** Runs `work` in one write transaction: other processes wait for it, never interleave. */
  const transaction = <T>(work: (db: Database.Database) => T): T => {
    const db = database();
    return db.transaction(() => work(db)).immediate();
  };
  const tolerated = <T>(work: () => T): T | undefined => {
    try {
      return work();
    } catch {
      return undefined;
    }
  };
  // Says what is wrong with the file and what to do: no cap or deposit setting would help.
  const unreadable = (cause: unknown) =>
    `The daily spend ledger ${file} cannot be read or written (${cause instanceof Error ? cause.message : String(cause)}): nothing is paid until it can. Check that it is a file you can read and write, in a directory you can write; if it is damaged or something else is in its place, move it away: the next run starts a new ledger, counting today afresh.`;

  return {
    async available() {
      const day = utcDay(now());
      try {
        // One read: no write lock needed to sum the day.
        const used = usedOn(database(), day);
        return options.limit > used ? options.limit - used : 0n;
      } catch {
        // Nothing can be reserved either: the refusal then names the file.
        return 0n;
      }
    },
    async reserve(amount, payment) {
      const day = utcDay(now());
      const key = payment === undefined ? `unkeyed ${randomUUID()}` : `payment ${payment.key}`;
      let outcome: { used: bigint } | null;
      try {
        outcome = transaction((db) => {
          const row = db
            .prepare("SELECT amount, holders FROM spend WHERE day = ? AND key = ?")
            .get(day, key) as Row | undefined;
          // A payment already held (a retry with its payment id) counts once, at its most.
          const more = row && row.amount >= amount ? 0n : amount - (row?.amount ?? 0n);
          const used = usedOn(db, day);
          if (used + more > options.limit) return { used };
          db.prepare(
            `INSERT INTO spend (day, key, amount, holders) VALUES (?, ?, ?, 1)
             ON CONFLICT (day, key) DO UPDATE SET amount = amount + ?, holders = holders + 1`,
          ).run(day, key, amount, more);
          return null;
        });
      } catch (cause) {
        return { type: "refused", code: "ledger_unreadable", message: unreadable(cause) };
      }
      if (outcome) {
        return {
          type: "refused",
          message: `Daily spend cap reached: ${formatUsdc(outcome.used)} of ${formatUsdc(options.limit)} in USDC used today (UTC) by presend with this config directory; this payment needs ${formatUsdc(amount)}. PRESEND_DAILY_CAP sets the cap.`,
        };
      }
      let released = false;
      return {
        type: "reserved",
        reservation: {
          spend: async () => {},
          // A ledger that fails on the way back keeps the amount counted: the payer's side.
          release: async () => {
            if (released) return;
            released = true;
            tolerated(() =>
              transaction((db) => {
                db.prepare("UPDATE spend SET holders = holders - 1 WHERE day = ? AND key = ?").run(
                  day,
                  key,
                );
                // Another run may hold the same payment, and may have been charged: it stays.
                db.prepare("DELETE FROM spend WHERE day = ? AND key = ? AND holders <= 0").run(
                  day,
                  key,
                );
              }),
            );
          },
        },
      };
    },
    async refund(payments, amount) {
      // Today's count only: a deposit counted on an earlier day no longer holds the cap.
      const day = utcDay(now());
      return (
        tolerated(() =>
          transaction((db) => {
            let freed = 0n;
            for (const payment of payments) {
              if (freed >= amount) break;
              const key = `payment ${payment.key}`;
              const row = db
                .prepare("SELECT amount FROM spend WHERE day = ? AND key = ?")
                .get(day, key) as Pick<Row, "amount"> | undefined;
              if (!row) continue;
              const left = amount - freed;
              const back = left < row.amount ? left : row.amount;
              db.prepare("UPDATE spend SET amount = amount - ? WHERE day = ? AND key = ?").run(
                back,
                day,
                key,
              );
              freed += back;
            }
            return freed;
          }),
        ) ?? 0n
      );
    },
  };
}
