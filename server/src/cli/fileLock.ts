import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { type ChannelLock, createMemoryChannelLock } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import Database from "better-sqlite3";

/** How often a waiting run asks for the lock again. */
const retryMs = 25;

/**
 * A lock shared by every process that uses one config directory (CLI runs and MCP servers
 * started at once by one user): an exclusive SQLite transaction on `file`, held while `work`
 * reads and writes the state it guards (the channel's state during a payment or the close,
 * pins.json while a pin is added), so each reads what the last one wrote. SQLite's lock is the
 * operating system's file lock, released when its process dies, so a run killed while holding
 * it never leaves it held: there is no stale lock to clear. A run that cannot have it within
 * `waitMs` does nothing (`hold` rejects before `work` runs).
 * @example const lock = fileLock(join(configDir, "channels", "lock"));
 */
export function fileLock(file: string, options: { waitMs?: number } = {}): ChannelLock {
  // SQLite's locks order processes; within one process, payments queue in memory first.
  const inProcess = createMemoryChannelLock();
  const waitMs = options.waitMs ?? 300_000;
  return {
    hold: (work) =>
      inProcess.hold(async () => {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        // No busy timeout: better-sqlite3 would wait blocking the event loop; this waits between tries.
        const db = new Database(file, { timeout: 0 });
        try {
          const deadline = Date.now() + waitMs;
          for (;;) {
            try {
              db.exec("BEGIN EXCLUSIVE");
              break;
            } catch (error) {
              if ((error as { code?: unknown }).code !== "SQLITE_BUSY") throw error;
              if (Date.now() > deadline) {
                throw new PaymentError(
                  `another presend run has held ${file} for ${waitMs / 1000} s`,
                  { code: "lock_timeout" },
                );
              }
              await new Promise((resolve) => setTimeout(resolve, retryMs));
            }
          }
          try {
            return await work();
          } finally {
            db.exec("ROLLBACK");
          }
        } finally {
          db.close();
        }
      }),
  };
}
