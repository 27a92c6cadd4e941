import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AddressListError, maxLineCharacters, readAddressList } from "./readAddressList";

const scam = "0x2f2d9c4cdd3ad4c16557010b5a215615b140fb91";
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
const maxBytes = 256 * 2 ** 20;

const dirs: string[] = [];
function listFile(text: string | Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
  dirs.push(dir);
  const file = join(dir, "list.jsonl");
  writeFileSync(file, text);
  return file;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("readAddressList", () => {
  it("reads entries by lowercase address, skips comments and blank lines", async () => {
    const upper = "0x2F2D9C4CDD3AD4C16557010B5A215615B140FB91";
    const file = listFile(`# demo\n\n${entry({ address: upper })}\n`);
    const content = await readAddressList(file, { maxBytes });
    expect(content.entries).toBe(1);
    expect(content.byAddress.get(scam)?.map((one) => one.address)).toEqual([upper]);
    expect(content.consulted).toEqual([
      { source: "test list", licence: "CC0-1.0", date: "2026-11-24", entries: 1 },
    ]);
  });

  it("reads a file saved with a UTF-8 byte order mark and CRLF line endings", async () => {
    const other = "0x55fed1fadf2fef3691896cd72fc2f82ba130b342";
    const file = listFile(`\uFEFF${entry()}\r\n# comment\r\n\r\n${entry({ address: other })}\r\n`);
    const content = await readAddressList(file, { maxBytes });
    expect([...content.byAddress.keys()]).toEqual([scam, other]);
  });

  it("keeps an address's entries in line order, a line repeated exactly once", async () => {
    const file = listFile(
      [
        entry({ label: "Fake airdrop" }),
        entry({ label: "Fake airdrop" }),
        entry({ label: "Address poisoner", category: "drainer" }),
        entry({ label: "Fake airdrop" }),
      ].join("\n"),
    );
    const content = await readAddressList(file, { maxBytes });
    expect(content.byAddress.get(scam)?.map((one) => one.label)).toEqual([
      "Fake airdrop",
      "Address poisoner",
    ]);
    expect(content.entries).toBe(2);
    expect(content.consulted[0]?.entries).toBe(2);
  });

  it.each([
    ["not JSON", "{address:", "line 3: not a JSON object"],
    ["a bad category", entry({ category: "phishing" }), "line 3: category"],
    ["an unknown chain", entry({ chains: ["solana"] }), "line 3: chains.0"],
    ["a malformed address", entry({ address: "0x1234" }), "line 3: address"],
    ["an address without 0x", entry({ address: scam.slice(2) }), "line 3: address"],
    ["a bad date", entry({ date: "24/11/2026" }), "line 3: date"],
    ["an unknown field", entry({ note: "x" }), "line 3:"],
  ])("fails on %s, naming the file and the line", async (_name, bad, message) => {
    const file = listFile(`${entry()}\n# comment\n${bad}\n`);
    const read = readAddressList(file, { maxBytes });
    await expect(read).rejects.toBeInstanceOf(AddressListError);
    await expect(read).rejects.toThrow(`${file} ${message}`);
  });

  it.each([
    ["in the middle", "\n"],
    ["last, without a newline", ""],
  ])("refuses a line longer than any entry (%s), naming it", async (_where, end) => {
    const huge = entry({ label: "x".repeat(4 * maxLineCharacters) });
    const file = listFile(`${entry()}\n${huge}${end}${end && entry()}`);
    await expect(readAddressList(file, { maxBytes })).rejects.toThrow(
      `${file} line 2: longer than ${maxLineCharacters} characters, which no entry is`,
    );
  });

  it("refuses a file over the size limit without reading it (a 1 GiB file by mistake)", async () => {
    const file = listFile("");
    // Sparse: a gibibyte on paper, nothing on disk.
    truncateSync(file, 2 ** 30);
    await expect(readAddressList(file, { maxBytes })).rejects.toThrow(
      `${file}: 1024 MiB or more, over the 256 MiB an address list may be (ADDRESS_LISTS_MAX_MB)`,
    );
  });

  it("gives the event loop back between chunks of a large file", async () => {
    const lines = Array.from({ length: 20_000 }, (_, index) =>
      entry({ address: `0x${index.toString(16).padStart(40, "0")}` }),
    );
    const file = listFile(`${lines.join("\n")}\n`);
    const turns: number[] = [];
    let counting = true;
    const turn = () => {
      turns.push(performance.now());
      if (counting) setImmediate(turn);
    };
    const started = performance.now();
    setImmediate(turn);
    const content = await readAddressList(file, { maxBytes });
    const finished = performance.now();
    counting = false;
    expect(content.entries).toBe(20_000);
    // Not a timing bound but a share: parsed in one go, the read is one long stretch without a
    // turn of the loop; in 64 KiB chunks (about 70 here) no stretch comes near half of it.
    const stretches = [...turns, finished].map((at, index) => at - (turns[index - 1] ?? started));
    expect(Math.max(...stretches)).toBeLessThan((finished - started) / 2);
  });
});
