import { truncateSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listEntry, listedScam, listFile } from "./addressListFiles.test-helpers";
import { AddressListError, maxLineCharacters, readAddressList } from "./readAddressList";

const maxBytes = 256 * 2 ** 20;

describe("readAddressList", () => {
  it("reads entries by lowercase address, skips comments and blank lines", async () => {
    const upper = "0x2F2D9C4CDD3AD4C16557010B5A215615B140FB91";
    const file = listFile(`# demo\n\n${listEntry({ address: upper })}\n`);
    const content = await readAddressList(file, { maxBytes });
    expect(content.entries).toBe(1);
    expect(content.byAddress.get(listedScam)?.map((one) => one.address)).toEqual([upper]);
    expect(content.consulted).toEqual([
      { source: "test list", licence: "CC0-1.0", date: "2026-11-24", entries: 1 },
    ]);
  });

  it("reads a file saved with a UTF-8 byte order mark and CRLF line endings", async () => {
    const other = "0x55fed1fadf2fef3691896cd72fc2f82ba130b342";
    const file = listFile(
      `\uFEFF${listEntry()}\r\n# comment\r\n\r\n${listEntry({ address: other })}\r\n`,
    );
    const content = await readAddressList(file, { maxBytes });
    expect([...content.byAddress.keys()]).toEqual([listedScam, other]);
  });

  it("keeps an address's entries in line order, a line repeated exactly once", async () => {
    const file = listFile(
      [
        listEntry({ label: "Fake airdrop" }),
        listEntry({ label: "Fake airdrop" }),
        listEntry({ label: "Address poisoner", category: "drainer" }),
        listEntry({ label: "Fake airdrop" }),
      ].join("\n"),
    );
    const content = await readAddressList(file, { maxBytes });
    expect(content.byAddress.get(listedScam)?.map((one) => one.label)).toEqual([
      "Fake airdrop",
      "Address poisoner",
    ]);
    expect(content.entries).toBe(2);
    expect(content.consulted[0]?.entries).toBe(2);
  });

  it.each([
    ["not JSON", "{address:", "line 3: not a JSON object"],
    ["a bad category", listEntry({ category: "phishing" }), "line 3: category"],
    ["an unknown chain", listEntry({ chains: ["solana"] }), "line 3: chains.0"],
    ["a malformed address", listEntry({ address: "0x1234" }), "line 3: address"],
    ["an address without 0x", listEntry({ address: listedScam.slice(2) }), "line 3: address"],
    ["a bad date", listEntry({ date: "24/11/2026" }), "line 3: date"],
    ["an unknown field", listEntry({ note: "x" }), "line 3:"],
  ])("fails on %s, naming the file and the line", async (_name, bad, message) => {
    const file = listFile(`${listEntry()}\n# comment\n${bad}\n`);
    const read = readAddressList(file, { maxBytes });
    await expect(read).rejects.toBeInstanceOf(AddressListError);
    await expect(read).rejects.toThrow(`${file} ${message}`);
  });

  it.each([
    ["in the middle", "\n"],
    ["last, without a newline", ""],
  ])("refuses a line longer than any entry (%s), naming it", async (_where, end) => {
    const huge = listEntry({ label: "x".repeat(4 * maxLineCharacters) });
    const file = listFile(`${listEntry()}\n${huge}${end}${end && listEntry()}`);
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
      listEntry({ address: `0x${index.toString(16).padStart(40, "0")}` }),
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
