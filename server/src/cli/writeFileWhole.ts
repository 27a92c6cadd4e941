import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Replaces `file` with `text` whole, readable by its owner only: written under another name,
 * flushed, then renamed into place, so a run killed mid-write (or a machine that loses power)
 * leaves the old content or the new, never half of either.
 * @example writeFileWhole(join(configDir, "channels", "salt"), `${salt}\n`);
 */
export function writeFileWhole(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const made = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(made, "w", 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(made, file);
  } catch (error) {
    rmSync(made, { force: true });
    throw error;
  }
}
