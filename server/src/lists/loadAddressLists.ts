import { readFileSync, type Stats, unwatchFile, watchFile } from "node:fs";
import {
  type AddressListEntry,
  AddressListEntrySchema,
  type ConsultedList,
  type ListMatch,
  type ListsReport,
} from "@presend/shared/api/addressLists";
import type { ChainFacts } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { type Address, getAddress } from "viem";

/** A list file cannot be used; the message names the file and the line. */
export class AddressListError extends ConfigurationError<"invalid_address_list"> {
  override name = "AddressListError";
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, code: "invalid_address_list" });
  }
}

/**
 * Parses one address list: JSON Lines, one entry per line (address, chains, label, category,
 * source, licence, date); blank lines and lines starting with # are skipped. Throws
 * AddressListError naming the first bad line.
 * @example parseAddressList('{"address":"0x…","chains":["base"],…}', "lists/demo.jsonl")
 */
export function parseAddressList(text: string, file: string): AddressListEntry[] {
  const entries: AddressListEntry[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new AddressListError(`${file} line ${index + 1}: not a JSON object`);
    }
    const parsed = AddressListEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) => `${issue.path.join(".") || "entry"}: ${issue.message}`,
      );
      throw new AddressListError(`${file} line ${index + 1}: ${issues.join("; ")}`);
    }
    entries.push({ ...parsed.data, address: getAddress(parsed.data.address.toLowerCase()) });
  });
  return entries;
}

export type AddressLists = {
  /** The lists consulted and what matched: the address itself, and where it sends its tokens. */
  report(address: Address, target: ChainName, facts: readonly ChainFacts[]): ListsReport;
  /** How many entries are loaded. */
  size(): number;
  /** Stops watching the files. */
  close(): void;
};

export type LoadAddressListsOptions = {
  files: readonly string[];
  /** Reload a file when it changes (default true); a bad change keeps the last good list. */
  watch?: boolean;
  /** How often the files are looked at (default 1 s). */
  watchIntervalMs?: number;
  /** Told after each reload: the entry count, or why the new content was refused. */
  onReload?: (outcome: { file: string; entries: number } | { file: string; error: Error }) => void;
};

function consultedLists(entries: readonly AddressListEntry[]): ConsultedList[] {
  const bySource = new Map<string, ConsultedList>();
  for (const entry of entries) {
    const key = `${entry.source}\u0000${entry.licence}`;
    const list = bySource.get(key) ?? {
      source: entry.source,
      licence: entry.licence,
      date: entry.date,
      entries: 0,
    };
    list.entries++;
    if (entry.date > list.date) list.date = entry.date;
    bySource.set(key, list);
  }
  return [...bySource.values()];
}

/**
 * Loads the operator's address lists at start (a bad line throws AddressListError, so start-up
 * fails naming it) and reloads each file when it changes.
 * @example const lists = loadAddressLists({ files: ["/etc/presend/lists.jsonl"] });
 */
export function loadAddressLists(options: LoadAddressListsOptions): AddressLists {
  const byFile = new Map<string, AddressListEntry[]>();
  for (const file of options.files) byFile.set(file, parseAddressList(readText(file), file));
  let index = buildIndex();

  function buildIndex() {
    const all = [...byFile.values()].flat();
    const byAddress = new Map<string, AddressListEntry[]>();
    for (const entry of all) {
      const key = entry.address.toLowerCase();
      byAddress.set(key, [...(byAddress.get(key) ?? []), entry]);
    }
    return { all, byAddress, consulted: consultedLists(all) };
  }

  const watching = options.watch ?? true;
  const listeners = new Map<string, (current: Stats, previous: Stats) => void>();
  if (watching) {
    for (const file of options.files) {
      const listener = (current: Stats, previous: Stats) => {
        if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
        try {
          const entries = parseAddressList(readText(file), file);
          byFile.set(file, entries);
          index = buildIndex();
          options.onReload?.({ file, entries: entries.length });
        } catch (error) {
          // The last good list stays in force: a half-written file must not empty it.
          const reason = error instanceof Error ? error : new Error(String(error));
          options.onReload?.({ file, error: reason });
        }
      };
      listeners.set(file, listener);
      watchFile(file, { interval: options.watchIntervalMs ?? 1_000, persistent: false }, listener);
    }
  }

  const match = (
    role: ListMatch["role"],
    chain: ChainName,
    entry: AddressListEntry,
  ): ListMatch => ({
    role,
    chain,
    address: entry.address,
    label: entry.label,
    category: entry.category,
    listedOn: entry.chains,
    source: entry.source,
    date: entry.date,
  });

  return {
    report(address, target, facts) {
      const matches: ListMatch[] = (index.byAddress.get(address.toLowerCase()) ?? []).map((entry) =>
        match("recipient", target, entry),
      );
      for (const chainFacts of facts) {
        const recipient =
          chainFacts.history?.status === "read" ? chainFacts.history.recipient : null;
        for (const destination of recipient?.sentTo ?? []) {
          for (const entry of index.byAddress.get(destination.address.toLowerCase()) ?? []) {
            if (entry.category !== "exchange-collector" || !entry.chains.includes(chainFacts.name))
              continue;
            matches.push(match("sweeps-to", chainFacts.name, entry));
          }
        }
      }
      return { consulted: structuredClone(index.consulted), matches };
    },
    size: () => index.all.length,
    close() {
      for (const [file, listener] of listeners) unwatchFile(file, listener);
    },
  };
}

function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (error) {
    throw new AddressListError(
      `${file}: cannot be read (${error instanceof Error ? error.message : error})`,
      {
        cause: error,
      },
    );
  }
}
