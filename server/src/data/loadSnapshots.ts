import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type SnapshotKind,
  snapshotKinds,
  snapshotSchemas,
} from "@presend/shared/api/snapshots/snapshotKinds";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import type { z } from "zod";

/** One served snapshot: the validated document, its exact response bytes and their strong ETag. */
export type LoadedSnapshot = {
  kind: SnapshotKind;
  file: string;
  date: string;
  document: unknown;
  body: string;
  etag: string;
};

export type LoadedSnapshots = Record<SnapshotKind, LoadedSnapshot>;

/** The repository's `snapshots/` folder, where the committed dated documents live. */
export const defaultSnapshotsDir = fileURLToPath(new URL("../../../snapshots/", import.meta.url));

const datedFile = /^(\d{4}-\d{2}-\d{2})\.json$/;

/** A snapshot file that is missing, unreadable or fails its schema; start-up must stop on it. */
export class SnapshotLoadError extends ConfigurationError<"invalid_snapshot"> {
  override name = "SnapshotLoadError";
  readonly file: string;
  readonly fieldPath: string | undefined;
  constructor(options: { file: string; message: string; fieldPath?: string; cause?: unknown }) {
    const where = options.fieldPath ? `${options.file}: ${options.fieldPath}` : options.file;
    super(`${where}: ${options.message}`, { cause: options.cause, code: "invalid_snapshot" });
    this.file = options.file;
    this.fieldPath = options.fieldPath;
  }
}

function fieldPathOf(issue: z.core.$ZodIssue): string {
  return issue.path.reduce<string>(
    (path, key) =>
      typeof key === "number" ? `${path}[${key}]` : path ? `${path}.${String(key)}` : String(key),
    "",
  );
}

async function newestDatedFile(dir: string, display: string): Promise<string> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (cause) {
    throw new SnapshotLoadError({ file: display, message: "folder cannot be read", cause });
  }
  // ISO dates sort lexicographically, so the last name is the newest document.
  const dated = names
    .filter((name) => datedFile.test(name) && !Number.isNaN(Date.parse(name.slice(0, 10))))
    .sort();
  const newest = dated.at(-1);
  if (!newest) {
    throw new SnapshotLoadError({ file: display, message: "no dated YYYY-MM-DD.json document" });
  }
  return newest;
}

async function loadKind(dir: string, kind: SnapshotKind): Promise<LoadedSnapshot> {
  const kindDir = join(dir, kind);
  const name = await newestDatedFile(kindDir, kind);
  const path = join(kindDir, name);
  const display = relative(process.cwd(), path) || path;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (cause) {
    const message = cause instanceof Error ? cause.message : String(cause);
    throw new SnapshotLoadError({ file: display, message: `not valid JSON (${message})`, cause });
  }
  const parsed = snapshotSchemas[kind].schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SnapshotLoadError({
      file: display,
      fieldPath: issue ? fieldPathOf(issue) || "(root)" : "(root)",
      message: issue?.message ?? "invalid document",
      cause: parsed.error,
    });
  }
  // Serve the parsed document, not the raw file: only fields the schema knows reach a client.
  const body = JSON.stringify(parsed.data);
  const etag = `"${createHash("sha256").update(body).digest("base64url")}"`;
  return { kind, file: path, date: name.slice(0, 10), document: parsed.data, body, etag };
}

/**
 * Loads the newest dated document of every kind, validated; throws on the first bad file.
 * @example const snapshots = await loadSnapshots(); // from the repository's snapshots/
 */
export async function loadSnapshots(options: { dir?: string } = {}): Promise<LoadedSnapshots> {
  const dir = options.dir ?? defaultSnapshotsDir;
  const loaded = await Promise.all(snapshotKinds.map((kind) => loadKind(dir, kind)));
  return Object.fromEntries(loaded.map((snapshot) => [snapshot.kind, snapshot])) as LoadedSnapshots;
}
