import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileLock } from "./fileLock";

describe("fileLock", () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-channel-lock-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("lets one holder in at a time, across locks that share only the file", async () => {
    // Two instances, as two processes would have: only SQLite's lock on the file orders them.
    const file = join(dir, "shared", "lock");
    const first = fileLock(file);
    const second = fileLock(file);
    const log: string[] = [];
    let release = () => {};
    let entered = () => {};
    const firstIn = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const holding = first.hold(async () => {
      log.push("first in");
      entered();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      log.push("first out");
    });
    await firstIn;
    const waiting = second.hold(async () => {
      log.push("second");
    });
    release();
    await Promise.all([holding, waiting]);
    expect(log).toEqual(["first in", "first out", "second"]);
  });

  it("is free again once a process holding it is killed", async () => {
    const file = join(dir, "killed", "lock");
    // Takes the lock once, then waits to be killed without ever releasing it.
    await fileLock(file).hold(async () => {});
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = new (require("better-sqlite3"))(${JSON.stringify(file)}); db.exec("BEGIN EXCLUSIVE"); console.log("held"); setInterval(() => {}, 1000);`,
      ],
      { cwd: join(import.meta.dirname, "..", ".."), stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => holder.stdout.once("data", () => resolve()));
    await expect(fileLock(file, { waitMs: 0 }).hold(async () => "ran")).rejects.toThrow(
      /another presend run has held/,
    );
    const exited = new Promise((resolve) => holder.once("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    expect(await fileLock(file, { waitMs: 0 }).hold(async () => "ran")).toBe("ran");
  });
});
