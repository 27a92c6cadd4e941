import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";

/** The address the list tests' entries name unless told otherwise (lowercase, as lists key it). */
export const listedScam = "0x2f2d9c4cdd3ad4c16557010b5a215615b140fb91";

/** One JSON Lines entry of an operator list, every field valid; `spec` overrides any of them. */
export const listEntry = (spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    address: listedScam,
    chains: ["base"],
    label: "Demo scam",
    category: "scam",
    source: "test list",
    licence: "CC0-1.0",
    date: "2026-11-24",
    ...spec,
  });

/**
 * A `list.jsonl` holding `text` in a temporary folder of its own, removed after each test of the
 * file that calls this (its afterEach is registered on the first call).
 * @example const file = listFile(`${listEntry()}\n`);
 */
export function listFile(text: string | Buffer): string {
  const file = join(listDir(), "list.jsonl");
  writeFileSync(file, text);
  return file;
}

/** A temporary folder of its own, removed after each test, for lists laid out by hand. */
export function listDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
  dirs.push(dir);
  return dir;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
