import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileDepositLedgerStore } from "./fileDepositLedgerStore";

const dirs: string[] = [];
const ledgerFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-deposits-"));
  dirs.push(dir);
  return join(dir, "channels", "deposits.json");
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const state = { deposits: ["channel deposit chan_1"], unspent: "90000", unspentLanded: "90000" };

describe("fileDepositLedgerStore", () => {
  it("keeps the state for the next run, and forgets it", async () => {
    const file = ledgerFile();
    expect(await fileDepositLedgerStore(file).read()).toBeNull();
    await fileDepositLedgerStore(file).write(state);
    expect(await fileDepositLedgerStore(file).read()).toEqual(state);
    await fileDepositLedgerStore(file).write(null);
    expect(await fileDepositLedgerStore(file).read()).toBeNull();
    await fileDepositLedgerStore(file).write(null);
  });

  it("reads a damaged or foreign file as none", async () => {
    const file = ledgerFile();
    await fileDepositLedgerStore(file).write(state);
    for (const text of [
      "{ half a file",
      JSON.stringify({ ...state, unspent: "-5" }),
      JSON.stringify({ ...state, unspent: 90000 }),
      JSON.stringify({ deposits: "all" }),
    ]) {
      writeFileSync(file, text);
      expect(await fileDepositLedgerStore(file).read()).toBeNull();
    }
  });
});
