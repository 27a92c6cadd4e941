import type { Stats } from "node:fs";
import { open } from "node:fs/promises";
import {
  type AddressListEntry,
  AddressListEntrySchema,
  type ConsultedList,
} from "@presend/shared/api/addressLists";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";

/** A list file cannot be used; the message names the file and the line. */
export class AddressListError extends ConfigurationError<"invalid_address_list"> {
  override name = "AddressListError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: "invalid_address_list" });
  }
}

/** The file changed while it was read (a rewrite in place still running): read it again later. */
export class AddressListChangedWhileRead extends Error {
  override name = "AddressListChangedWhileRead";
}

/** Which content of a path was read: a rename, a swapped symlink or a rewrite each change it. */
export type FileVersion = Pick<Stats, "dev" | "ino" | "size" | "mtimeMs" | "ctimeMs">;

export const fileVersion = (stats: FileVersion): FileVersion => ({
  dev: stats.dev,
  ino: stats.ino,
  size: stats.size,
  mtimeMs: stats.mtimeMs,
  ctimeMs: stats.ctimeMs,
});

export const sameVersion = (a: FileVersion, b: FileVersion): boolean =>
  a.dev === b.dev &&
  a.ino === b.ino &&
  a.size === b.size &&
  a.mtimeMs === b.mtimeMs &&
  a.ctimeMs === b.ctimeMs;

/**
 * The longest line read: an entry's fields are bounded (label 120, source 200, licence 80
 * characters), so a longer line is a mistake, refused before it is held whole or parsed.
 */
export const maxLineCharacters = 16 * 1024;

/**
 * One address list file's entries, by lowercase address (the key lookups use), in line order.
 * A line repeated exactly is kept once.
 */
export type AddressListContent = {
  byAddress: Map<string, AddressListEntry[]>;
  /** Entries kept (a line repeated exactly counts once). */
  entries: number;
  /** Each source and licence of the file, its newest date and its entries. */
  consulted: ConsultedList[];
  version: FileVersion;
};

/**
 * Reads one address list: JSON Lines, one entry per line (address, chains, label, category,
 * source, licence, date); blank lines and lines starting with # are skipped, CRLF and a UTF-8
 * BOM are read as plain lines. The file is read and parsed in chunks that each give the event
 * loop back, so a reload of 300,000 lines never holds requests up. Throws AddressListError naming
 * the first bad line, a file over `maxBytes` (before reading it) or a line over
 * `maxLineCharacters`; AddressListChangedWhileRead when the file changed under the read.
 * @example const { byAddress } = await readAddressList("/etc/presend/scams.jsonl", { maxBytes: 256 * 2 ** 20 });
 */
export async function readAddressList(
  file: string,
  options: { maxBytes: number },
): Promise<AddressListContent> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    throw new AddressListError(`${file}: cannot be read (${reason(error)})`, { cause: error });
  }
  try {
    const before = await handle.stat();
    if (before.size > options.maxBytes) throw tooLarge(file, before.size, options.maxBytes);
    const byAddress = new Map<string, AddressListEntry[]>();
    const bySource = new Map<string, ConsultedList>();
    let entries = 0;
    let lineNumber = 0;
    const take = (raw: string) => {
      lineNumber++;
      if (raw.length > maxLineCharacters) {
        throw new AddressListError(
          `${file} line ${lineNumber}: longer than ${maxLineCharacters} characters, which no entry is`,
        );
      }
      const entry = parseLine(raw, `${file} line ${lineNumber}`);
      if (!entry) return;
      const key = entry.address.toLowerCase();
      const same = byAddress.get(key);
      if (same?.some((other) => sameEntry(other, entry))) return;
      if (same) same.push(entry);
      else byAddress.set(key, [entry]);
      entries++;
      const sourceKey = `${entry.source}\u0000${entry.licence}`;
      const list = bySource.get(sourceKey);
      if (!list) {
        bySource.set(sourceKey, {
          source: entry.source,
          licence: entry.licence,
          date: entry.date,
          entries: 1,
        });
      } else {
        list.entries++;
        if (entry.date > list.date) list.date = entry.date;
      }
    };
    const decoder = new TextDecoder("utf-8");
    let rest = "";
    let bytes = 0;
    try {
      for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 })) {
        bytes += (chunk as Buffer).length;
        // The file may grow after the size was looked at.
        if (bytes > options.maxBytes) throw tooLarge(file, bytes, options.maxBytes);
        const lines = (rest + decoder.decode(chunk as Buffer, { stream: true })).split("\n");
        rest = lines.pop() ?? "";
        for (const line of lines) take(line);
        // A line still unfinished past the longest an entry can be is refused now, unbuffered.
        if (rest.length > maxLineCharacters) take(rest);
        // Each chunk's lines parsed, requests waiting get their turn before the next chunk.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      if (error instanceof AddressListError) throw error;
      throw new AddressListError(`${file}: cannot be read (${reason(error)})`, { cause: error });
    }
    rest += decoder.decode();
    if (rest !== "") take(rest);
    const after = await handle.stat();
    if (!sameVersion(fileVersion(before), fileVersion(after)) || bytes !== after.size) {
      throw new AddressListChangedWhileRead(`${file} changed while it was read`);
    }
    return { byAddress, entries, consulted: [...bySource.values()], version: fileVersion(after) };
  } finally {
    await handle.close();
  }
}

function parseLine(raw: string, where: string): AddressListEntry | null {
  // trim() also drops a UTF-8 byte order mark (U+FEFF) and the CR of CRLF.
  const line = raw.trim();
  if (line === "" || line.startsWith("#")) return null;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new AddressListError(`${where}: not a JSON object`);
  }
  const parsed = AddressListEntrySchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map(
      (issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`,
    );
    throw new AddressListError(`${where}: ${issues.join("; ")}`);
  }
  return parsed.data;
}

function sameEntry(a: AddressListEntry, b: AddressListEntry): boolean {
  return (
    a.address.toLowerCase() === b.address.toLowerCase() &&
    a.label === b.label &&
    a.category === b.category &&
    a.source === b.source &&
    a.licence === b.licence &&
    a.date === b.date &&
    a.chains.join() === b.chains.join()
  );
}

function tooLarge(file: string, bytes: number, maxBytes: number): AddressListError {
  const mib = (value: number) => `${Math.ceil(value / 2 ** 20)} MiB`;
  return new AddressListError(
    `${file}: ${mib(bytes)} or more, over the ${mib(maxBytes)} an address list may be (ADDRESS_LISTS_MAX_MB)`,
  );
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
