import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts, worldRpcUrls } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import type { ChainName } from "@presend/shared/chains/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { createEngine, type Engine } from "../engine/createEngine";
import { freePort } from "../http/freePort";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { type AddressLists, loadAddressLists } from "./loadAddressLists";

const { listedScam, exchangeDeposit, exchangeCollector } = devnetAccounts;
const entry = (
  address: string,
  category: string,
  chains: ChainName[],
  label = `listed for ${chains.join(", ")}`,
) =>
  JSON.stringify({
    address,
    chains,
    label,
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

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
    const file = join(dir, "other-chain.jsonl");
    writeFileSync(
      file,
      `${entry(listedScam.address, "scam", ["ethereum"])}\n${entry(exchangeCollector.address, "exchange-collector", ["polygon"])}\n`,
    );
    lists = await loadAddressLists({ files: [file], watch: false });
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

// A security firm's list as an update job replaces it, under the server `npm start` runs, over
// HTTP: the 60,000 lines are read in chunks between which requests are answered.
describe("a large address list reloaded under the running server (real anvil, HTTP)", () => {
  let dir: string;
  let stack: PaidStack;
  let server: DrainingServer;
  let url: string;
  const file = () => join(dir, "scams.jsonl");
  const metric = async (name: string) => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split("\n").find((one) => one.startsWith(`${name}{file="scams.jsonl"} `));
    return line === undefined ? undefined : Number(line.split(" ")[1]);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "presend-lists-"));
    writeFileSync(file(), `${entry(listedScam.address, "scam", ["base"], "Small list")}\n`);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    stack = await startPaidStack({
      world: sharedWorld(),
      publicUrl: url,
      env: { ADDRESS_LISTS: file() },
    });
    server = await serveWithDrain(stack.app, { port });
  });
  afterAll(async () => {
    await server?.drain(1_000);
    await stack?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers requests all through the reload, then serves the new list; a bad change is refused and shown on /metrics", async () => {
    expect(await metric("presend_address_list_entries")).toBe(1);
    const lines = Array.from({ length: 59_999 }, (_, index) =>
      entry(`0x${(index + 1).toString(16).padStart(40, "0")}`, "scam", ["ethereum", "base"]),
    );
    lines.push(entry(listedScam.address, "scam", ["base"], "Large list"));
    writeFileSync(`${file()}.new`, `${lines.join("\n")}\n`);
    renameSync(`${file()}.new`, file());

    const answeredAt: number[] = [performance.now()];
    while ((await metric("presend_address_list_entries")) !== 60_000) {
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      answeredAt.push(performance.now());
      if (answeredAt.length > 2_000) throw new Error("the large list was never served");
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const gaps = answeredAt.slice(1).map((at, index) => at - (answeredAt[index] ?? at));
    // Parsed in one go, 60,000 lines held every request up for seconds; in chunks, far less
    // than this generous bound.
    expect(Math.max(...gaps)).toBeLessThan(1_000);
    const result = await stack.engine.check({ address: listedScam.address, chain: "base" });
    if (result.type !== "report") throw new Error("chain unreadable");
    expect(result.report.lists?.matches.map((match) => match.label)).toEqual(["Large list"]);
    expect(await metric("presend_address_list_current")).toBe(1);

    writeFileSync(file(), `${lines.slice(0, 100).join("\n")}\n{"address":\n`);
    await expect
      .poll(() => metric("presend_address_list_current"), { timeout: 5_000, interval: 100 })
      .toBe(0);
    expect(await metric("presend_address_list_entries")).toBe(60_000);
  });
});
