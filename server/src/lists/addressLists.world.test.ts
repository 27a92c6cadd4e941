import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts, worldRpcUrls } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import type { ChainName } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { createEngine, type Engine } from "../engine/createEngine";
import { type AddressLists, loadAddressLists } from "./loadAddressLists";

const { listedScam, exchangeDeposit, exchangeCollector } = devnetAccounts;
const entry = (address: string, category: string, chains: ChainName[]) =>
  JSON.stringify({
    address,
    chains,
    label: `listed for ${chains.join(", ")}`,
    category,
    source: "test list",
    licence: "CC0-1.0",
    date: "2026-11-24",
  });

// Entries that name another chain than the one checked, against the real engine on the run's
// shared world (read only): the scam is named but not danger, the collector does not count.
describe("address list entries for another chain (real anvil)", () => {
  let dir: string;
  let lists: AddressLists;
  let engine: Engine;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
    const file = join(dir, "other-chain.jsonl");
    writeFileSync(
      file,
      `${entry(listedScam.address, "scam", ["ethereum"])}\n${entry(exchangeCollector.address, "exchange-collector", ["polygon"])}\n`,
    );
    lists = loadAddressLists({ files: [file], watch: false });
    const world = sharedWorld();
    const rpcUrls = worldRpcUrls(world);
    engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls }),
      lists,
    });
  });
  afterAll(() => {
    lists?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("a scam listed for ethereum, checked on base: warn naming ethereum, not danger", async () => {
    const result = await engine.check({ address: listedScam.address, chain: "base" });
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.verdict.level).toBe("warn");
    expect(result.report.verdict.reasons[0]).toMatchObject({ code: "listed_scam_elsewhere" });
    expect(result.report.verdict.reasons[0]?.message).toContain("on Ethereum (not on Base)");
    expect(result.report.lists?.matches).toEqual([
      expect.objectContaining({ role: "recipient", chain: "base", listedOn: ["ethereum"] }),
    ]);
  });

  it("a collector listed for polygon only: sweeps to it on base make no exchange deposit address", async () => {
    const result = await engine.deep({ address: exchangeDeposit.address, chain: "base" });
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.lists?.matches).toEqual([]);
    expect(result.report.verdict.reasons.map((reason) => reason.code)).not.toContain(
      "exchange_deposit",
    );
  });
});
