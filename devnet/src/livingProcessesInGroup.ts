import { readdirSync, readFileSync } from "node:fs";

/**
 * Pids of the processes of a process group that are still running (zombies excluded), read from
 * /proc. Tests use it to prove that stopping a chain leaves nothing behind.
 * @example expect(livingProcessesInGroup(anvil.process.pid)).toEqual([]);
 */
export function livingProcessesInGroup(groupId: number): number[] {
  const living: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we were looking
    }
    // Fields after the parenthesised command name: state ppid pgrp ...
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[2]) === groupId) living.push(Number(entry));
  }
  return living;
}
