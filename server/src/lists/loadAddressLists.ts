import { stat } from "node:fs/promises";
import type {
  AddressListEntry,
  ConsultedList,
  ListMatch,
  ListsReport,
} from "@presend/shared/api/addressLists";
import type { ChainFacts } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { type Address, getAddress } from "viem";
import { limits } from "../limits";
import {
  AddressListChangedWhileRead,
  type AddressListContent,
  AddressListError,
  type FileVersion,
  fileVersion,
  readAddressList,
  sameVersion,
} from "./readAddressList";

/** What is served from one list file. */
export type AddressListStatus = {
  file: string;
  /** Entries served from it. */
  entries: number;
  /** When the served content was read (ms since the epoch). */
  loadedAt: number;
  /** False while the file holds something else than what is served: refused, gone, unreadable. */
  current: boolean;
};

export type AddressLists = {
  /** The lists consulted and what matched: the address itself, and where it sends its tokens. */
  report(address: Address, target: ChainName, facts: readonly ChainFacts[]): ListsReport;
  /** How many entries are served. */
  size(): number;
  /** Each file's served entries and whether it is still what the file holds. */
  status(): AddressListStatus[];
  /** Stops watching the files. */
  close(): void;
};

export type LoadAddressListsOptions = {
  files: readonly string[];
  /** Reload a file when it changes (default true); a bad change keeps the last good list. */
  watch?: boolean;
  /** How often the files are looked at (default 1 s). */
  watchIntervalMs?: number;
  /** The largest file read (default limits.addressListMiB); larger ones are refused unread. */
  maxBytes?: number;
  /** Told after each reload: the entry count, or why the new content was refused. */
  onReload?: (outcome: { file: string; entries: number } | { file: string; error: Error }) => void;
};

type Served = AddressListStatus & {
  content: AddressListContent;
  /** A version seen by the last poll and not yet read: read once a poll sees it unchanged. */
  settling: FileVersion | undefined;
  /** The version last refused: not read again until the file changes. */
  refused: FileVersion | undefined;
  gone: boolean;
  reading: boolean;
};

/**
 * Loads the operator's address lists at start (a bad line throws AddressListError, so start-up
 * fails naming it) and reloads each file once it changed and stopped changing (a rewrite in place
 * is read whole, not half-written). Files are read in chunks that yield to the event loop, and the
 * last good list is served until the new one is read; a refused or vanished file is told through
 * `onReload` and `status()`.
 * @example const lists = await loadAddressLists({ files: ["/etc/presend/lists.jsonl"] });
 */
export async function loadAddressLists(options: LoadAddressListsOptions): Promise<AddressLists> {
  const maxBytes = options.maxBytes ?? limits.addressListMiB * 2 ** 20;
  const intervalMs = options.watchIntervalMs ?? 1_000;
  const served: Served[] = [];
  for (const file of options.files) {
    const content = await readSettled(file, maxBytes, intervalMs);
    served.push({
      file,
      content,
      entries: content.entries,
      loadedAt: Date.now(),
      current: true,
      settling: undefined,
      refused: undefined,
      gone: false,
      reading: false,
    });
  }
  let consulted = mergeConsulted(served);
  const tell: NonNullable<LoadAddressListsOptions["onReload"]> = (outcome) =>
    options.onReload?.(outcome);

  async function poll(list: Served) {
    if (list.reading) return;
    let version: FileVersion;
    try {
      version = fileVersion(await stat(list.file));
    } catch (error) {
      list.settling = undefined;
      if (!list.gone) {
        list.gone = true;
        list.current = false;
        tell({
          file: list.file,
          error: new AddressListError(
            `${list.file}: cannot be read (${error instanceof Error ? error.message : error})`,
            { cause: error },
          ),
        });
      }
      return;
    }
    list.gone = false;
    if (sameVersion(version, list.content.version)) {
      // Back to what is served (a symlink swapped back): nothing to read.
      list.current = true;
      list.settling = undefined;
      return;
    }
    if (list.refused && sameVersion(version, list.refused)) return;
    if (!list.settling || !sameVersion(version, list.settling)) {
      // Still being written, or just changed: read it once a poll finds it unchanged.
      list.settling = version;
      return;
    }
    list.settling = undefined;
    list.reading = true;
    try {
      const content = await readAddressList(list.file, { maxBytes });
      if (content.entries === 0 && list.content.entries > 0) {
        throw new AddressListError(
          `${list.file}: no entries any more (a download that failed, a truncated file?)`,
        );
      }
      Object.assign(list, {
        content,
        entries: content.entries,
        loadedAt: Date.now(),
        current: true,
        refused: undefined,
      });
      consulted = mergeConsulted(served);
      tell({ file: list.file, entries: content.entries });
    } catch (error) {
      // Rewritten under the read: the next polls see it change and settle again.
      if (error instanceof AddressListChangedWhileRead) return;
      // The last good list stays in force: a bad or half-written file must not empty it.
      list.refused = version;
      list.current = false;
      tell({ file: list.file, error: error instanceof Error ? error : new Error(String(error)) });
    } finally {
      list.reading = false;
    }
  }

  const timer =
    (options.watch ?? true)
      ? setInterval(() => {
          for (const list of served) void poll(list);
        }, intervalMs)
      : undefined;
  timer?.unref();

  const match = (
    role: ListMatch["role"],
    chain: ChainName,
    entry: AddressListEntry,
  ): ListMatch => ({
    role,
    chain,
    // Lists hold addresses in any case; the report names them in EIP-55 form.
    address: getAddress(entry.address.toLowerCase()),
    label: entry.label,
    category: entry.category,
    listedOn: entry.chains,
    source: entry.source,
    date: entry.date,
  });
  // Every file's entries for the address, in ADDRESS_LISTS order then line order.
  const entriesOf = (address: string) =>
    served.flatMap((list) => list.content.byAddress.get(address.toLowerCase()) ?? []);

  return {
    report(address, target, facts) {
      const matches: ListMatch[] = entriesOf(address).map((entry) =>
        match("recipient", target, entry),
      );
      for (const chainFacts of facts) {
        const recipient =
          chainFacts.history?.status === "read" ? chainFacts.history.recipient : null;
        for (const destination of recipient?.sentTo ?? []) {
          for (const entry of entriesOf(destination.address)) {
            if (entry.category !== "exchange-collector" || !entry.chains.includes(chainFacts.name))
              continue;
            matches.push(match("sweeps-to", chainFacts.name, entry));
          }
        }
      }
      // The same entry in two files (lists merged by hand) is one match.
      const seen = new Set<string>();
      const distinct = matches.filter((found) => {
        const key = JSON.stringify(found);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      return { consulted: structuredClone(consulted), matches: distinct };
    },
    size: () => served.reduce((total, list) => total + list.entries, 0),
    status: () =>
      served.map(({ file, entries, loadedAt, current }) => ({ file, entries, loadedAt, current })),
    close() {
      if (timer) clearInterval(timer);
    },
  };
}

/** Reads a file at start, again while a rewrite in place is still running (a few polls at most). */
async function readSettled(
  file: string,
  maxBytes: number,
  intervalMs: number,
): Promise<AddressListContent> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await readAddressList(file, { maxBytes });
    } catch (error) {
      if (!(error instanceof AddressListChangedWhileRead)) throw error;
      if (attempt === 5) {
        throw new AddressListError(`${file}: kept changing while it was read (${attempt} times)`);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

function mergeConsulted(served: readonly Served[]): ConsultedList[] {
  const bySource = new Map<string, ConsultedList>();
  for (const list of served.flatMap((one) => one.content.consulted)) {
    const key = `${list.source}\u0000${list.licence}`;
    const known = bySource.get(key);
    if (!known) bySource.set(key, { ...list });
    else {
      known.entries += list.entries;
      if (list.date > known.date) known.date = list.date;
    }
  }
  return [...bySource.values()];
}
