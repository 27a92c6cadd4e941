import {
  closeSync,
  openSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { readableFacts } from "@presend/shared/verdict/chainFacts.test-helpers";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { listDir, listEntry, listedScam, listFile } from "./addressListFiles.test-helpers";
import { loadAddressLists } from "./loadAddressLists";
import { AddressListError } from "./readAddressList";

const collector = "0x55fED1fadf2fEF3691896CD72FC2f82BA130B342";
const other = "0x0000000000000000000000000000000000c0ffee";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("loadAddressLists", () => {
  it("fails at start on a malformed file, naming its line", async () => {
    const file = listFile(`${listEntry()}\n${listEntry({ chains: [] })}\n`);
    await expect(loadAddressLists({ files: [file], watch: false })).rejects.toThrow(
      `${file} line 2: chains`,
    );
  });

  it("matches the address with its chains, and where its tokens go among exchange collectors", async () => {
    const file = listFile(
      `${listEntry({ chains: ["ethereum"] })}\n${listEntry({ address: collector, category: "exchange-collector", label: "Exchange X", date: "2026-11-25" })}\n`,
    );
    const lists = await loadAddressLists({ files: [file], watch: false });
    const base = readableFacts("base");
    const report = lists.report("0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91", "base", [
      {
        ...base,
        history: {
          status: "read",
          tokens: ["USDC"],
          fromBlock: "0",
          toBlock: "9",
          native: { status: "not_asked" },
          sender: null,
          recipient: {
            transfers: 2,
            zeroValueTransfers: 0,
            dustTransfers: 0,
            zeroOrDustCounterparties: 0,
            sentTo: [{ address: collector, transfers: 2 }],
          },
        },
      },
    ]);
    expect(report.consulted).toEqual([
      { source: "test list", licence: "CC0-1.0", date: "2026-11-25", entries: 2 },
    ]);
    // A list entry for another chain is reported with the chains it names (the verdict warns).
    expect(report.matches.map((match) => [match.role, match.chain, match.listedOn])).toEqual([
      ["recipient", "base", ["ethereum"]],
      ["sweeps-to", "base", ["base"]],
    ]);
  });

  it("reloads a file when it changes, and keeps the last good list when the change is bad", async () => {
    const file = listFile(`${listEntry()}\n`);
    const reloads: unknown[] = [];
    let notify = () => {};
    const lists = await loadAddressLists({
      files: [file],
      watchIntervalMs: 20,
      onReload: (outcome) => {
        reloads.push(outcome);
        notify();
      },
    });
    const reloaded = () => new Promise<void>((resolve) => (notify = resolve));
    try {
      expect(lists.size()).toBe(1);
      // Written right after start, before the first poll: still a change to read.
      let next = reloaded();
      writeFileSync(
        file,
        `${listEntry()}\n${listEntry({ address: collector, category: "exchange-collector" })}\n`,
      );
      await next;
      expect(lists.size()).toBe(2);
      next = reloaded();
      writeFileSync(file, `${listEntry()}\nnot json at all\n`);
      await next;
      expect(lists.size()).toBe(2);
      expect(reloads.at(-1)).toMatchObject({ error: expect.any(AddressListError) });
    } finally {
      lists.close();
    }
  });

  it("reports every entry naming an address in EIP-55 form, files in order, an entry repeated in two files once", async () => {
    const first = listFile(`${listEntry({ label: "Fake airdrop" })}\n`);
    const second = listFile(
      `${listEntry({ address: listedScam.toUpperCase().replace("0X", "0x"), label: "Fake airdrop" })}\n${listEntry({ label: "Address poisoner", category: "drainer" })}\n`,
    );
    const lists = await loadAddressLists({ files: [first, second], watch: false });
    const report = lists.report("0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91", "base", []);
    expect(report.matches.map((match) => [match.address, match.label])).toEqual([
      ["0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91", "Fake airdrop"],
      ["0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91", "Address poisoner"],
    ]);
    expect(lists.size()).toBe(3);
  });

  // How update jobs replace a list: each one from list A (the listedScam and another) to list B (the
  // collector, a line of the same length, and the same other), while the lists are asked all
  // along: one of the two lists is always served, never an empty or half-written one, and B is
  // served in the end.
  const listA = `${listEntry()}\n${listEntry({ address: other })}\n`;
  const listB = `${listEntry({ address: collector.toLowerCase() })}\n${listEntry({ address: other })}\n`;
  const sameTime = new Date("2026-11-24T00:00:00Z");
  it.each<[string, (file: string) => Promise<void>]>([
    [
      "rewritten in place over several polls (truncated, then written as a download arrives)",
      async (file) => {
        const handle = openSync(file, "w");
        try {
          // The download connects first: the file stays empty for a few polls.
          await sleep(100);
          for (const char of listB) {
            writeSync(handle, char);
            await sleep(1);
          }
        } finally {
          closeSync(handle);
        }
      },
    ],
    [
      "a new file renamed over it",
      async (file) => {
        writeFileSync(`${file}.new`, listB);
        renameSync(`${file}.new`, file);
      },
    ],
    [
      "deleted, then written again a few polls later",
      async (file) => {
        unlinkSync(file);
        await sleep(100);
        writeFileSync(file, listB);
      },
    ],
    [
      "a symlink swapped to a release of the same size and modification time",
      async (file) => {
        const next = join(dirname(file), "release-b.jsonl");
        writeFileSync(next, listB);
        utimesSync(next, sameTime, sameTime);
        symlinkSync(next, `${file}.new`);
        renameSync(`${file}.new`, file);
      },
    ],
    [
      "saved by an editor (a backup renamed aside, a new file written, a swap file beside)",
      async (file) => {
        writeFileSync(join(dirname(file), ".list.jsonl.swp"), "editor state");
        renameSync(file, `${file}~`);
        writeFileSync(file, listB);
        unlinkSync(`${file}~`);
      },
    ],
  ])("picks up a list %s, serving the last good one meanwhile", async (_name, update) => {
    const dir = listDir();
    const file = join(dir, "list.jsonl");
    const release = join(dir, "release-a.jsonl");
    writeFileSync(release, listA);
    utimesSync(release, sameTime, sameTime);
    symlinkSync(release, file);
    const lists = await loadAddressLists({ files: [file], watchIntervalMs: 20 });
    const served = () =>
      [listedScam, collector, other].filter(
        (address) => lists.report(address as Address, "base", []).matches.length > 0,
      );
    const seen: string[][] = [];
    const sampler = setInterval(() => seen.push(served()), 2);
    try {
      await sleep(60);
      await update(file);
      await expect.poll(served, { timeout: 3_000, interval: 10 }).toEqual([collector, other]);
    } finally {
      clearInterval(sampler);
      lists.close();
    }
    expect(lists.size()).toBe(2);
    const [a, b] = [JSON.stringify([listedScam, other]), JSON.stringify([collector, other])];
    expect(seen.map((one) => JSON.stringify(one)).filter((one) => one !== a && one !== b)).toEqual(
      [],
    );
  });

  it("tells a list that is gone or emptied, keeps serving the last good one, and serves it again once back", async () => {
    const file = listFile(`${listEntry()}\n`);
    const reloads: Array<{ file: string; entries: number } | { file: string; error: Error }> = [];
    const lists = await loadAddressLists({
      files: [file],
      watchIntervalMs: 20,
      onReload: (outcome) => reloads.push(outcome),
    });
    try {
      expect(lists.status()).toEqual([
        { file, entries: 1, loadedAt: expect.any(Number), current: true },
      ]);
      unlinkSync(file);
      await expect.poll(() => lists.status()[0]?.current, { timeout: 2_000 }).toBe(false);
      expect(lists.size()).toBe(1);
      expect(reloads).toEqual([
        { file, error: expect.objectContaining({ message: expect.stringContaining("ENOENT") }) },
      ]);
      // A failed download leaves an empty file behind: refused too.
      writeFileSync(file, "");
      await expect.poll(() => reloads.length, { timeout: 2_000 }).toBe(2);
      expect(reloads[1]).toMatchObject({
        error: {
          message: `${file}: no entries any more (a download that failed, a truncated file?)`,
        },
      });
      expect(lists.size()).toBe(1);
      writeFileSync(file, `${listEntry()}\n${listEntry({ address: other })}\n`);
      await expect
        .poll(() => lists.status()[0], { timeout: 2_000 })
        .toMatchObject({
          entries: 2,
          current: true,
        });
      expect(reloads.at(-1)).toEqual({ file, entries: 2 });
    } finally {
      lists.close();
    }
  });
});
