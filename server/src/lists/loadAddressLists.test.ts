import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readableFacts } from "@presend/shared/verdict/chainFacts.test-helpers";
import { afterEach, describe, expect, it } from "vitest";
import { AddressListError, loadAddressLists, parseAddressList } from "./loadAddressLists";

const scam = "0x2f2d9c4cdd3ad4c16557010b5a215615b140fb91";
const collector = "0x55fED1fadf2fEF3691896CD72FC2f82BA130B342";
const entry = (spec: Record<string, unknown> = {}) =>
  JSON.stringify({
    address: scam,
    chains: ["base"],
    label: "Demo scam",
    category: "scam",
    source: "test list",
    licence: "CC0-1.0",
    date: "2026-11-24",
    ...spec,
  });

const dirs: string[] = [];
function listFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
  dirs.push(dir);
  const file = join(dir, "list.jsonl");
  writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("parseAddressList", () => {
  it("reads entries, skips comments and blank lines, keeps addresses in EIP-55 form", () => {
    const entries = parseAddressList(`# demo\n\n${entry()}\n`, "list.jsonl");
    expect(entries).toHaveLength(1);
    expect(entries[0]?.address).toBe("0x2F2D9c4CdD3Ad4C16557010b5a215615B140Fb91");
  });

  it.each([
    ["not JSON", "{address:", "line 3: not a JSON object"],
    ["a bad category", entry({ category: "phishing" }), "line 3: category"],
    ["an unknown chain", entry({ chains: ["solana"] }), "line 3: chains.0"],
    ["a malformed address", entry({ address: "0x1234" }), "line 3: address"],
    ["a bad date", entry({ date: "24/11/2026" }), "line 3: date"],
    ["an unknown field", entry({ note: "x" }), "line 3:"],
  ])("fails on %s, naming the file and the line", (_name, bad, message) => {
    const text = `${entry()}\n# comment\n${bad}\n`;
    expect(() => parseAddressList(text, "lists/x.jsonl")).toThrow(AddressListError);
    expect(() => parseAddressList(text, "lists/x.jsonl")).toThrow(`lists/x.jsonl ${message}`);
  });
});

describe("loadAddressLists", () => {
  it("fails at start on a malformed file, naming its line", () => {
    const file = listFile(`${entry()}\n${entry({ chains: [] })}\n`);
    expect(() => loadAddressLists({ files: [file], watch: false })).toThrow(
      `${file} line 2: chains`,
    );
  });

  it("matches the address with its chains, and where its tokens go among exchange collectors", () => {
    const file = listFile(
      `${entry({ chains: ["ethereum"] })}\n${entry({ address: collector, category: "exchange-collector", label: "Exchange X", date: "2026-11-25" })}\n`,
    );
    const lists = loadAddressLists({ files: [file], watch: false });
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
    const file = listFile(`${entry()}\n`);
    const reloads: unknown[] = [];
    let notify = () => {};
    const lists = loadAddressLists({
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
      // fs.watchFile takes its first stat asynchronously: a write before it would be that first
      // stat, not a change. Give the watcher a few of its 20 ms polls to start.
      await new Promise((resolve) => setTimeout(resolve, 200));
      let next = reloaded();
      writeFileSync(
        file,
        `${entry()}\n${entry({ address: collector, category: "exchange-collector" })}\n`,
      );
      await next;
      expect(lists.size()).toBe(2);
      next = reloaded();
      writeFileSync(file, `${entry()}\nnot json at all\n`);
      await next;
      expect(lists.size()).toBe(2);
      expect(reloads.at(-1)).toMatchObject({ error: expect.any(AddressListError) });
    } finally {
      lists.close();
    }
  });
});
