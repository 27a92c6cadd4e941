import { demoAddressListFile, startWorld, type World } from "@presend/devnet";
import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { loadConfig } from "../config/loadConfig";
import { createEngine } from "../engine/createEngine";
import { loadAddressLists } from "../lists/loadAddressLists";
import { parseDevCheckArgs } from "./parseDevCheckArgs";

// Developer tool: `npm run dev:check -- <address> [chain] [--deep] [--json] [--from=0x…]` prints the full report
// from the same engine the paid routes use. It reads the chains of a running `npm start` when they
// answer on the configured ports, and otherwise starts a temporary local world of its own.

async function chainIdAt(url: string): Promise<number | null> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(500),
    });
    const body = (await response.json()) as { result?: string };
    return body.result ? Number(body.result) : null;
  } catch {
    return null;
  }
}

async function main(): Promise<number> {
  const parsed = parseDevCheckArgs(process.argv.slice(2));
  if ("help" in parsed) {
    console.log(parsed.help);
    return 0;
  }
  if ("error" in parsed) {
    console.error(parsed.error);
    return 2;
  }
  const { address, chain, deep, json, from } = parsed.args;
  const config = loadConfig(process.env);
  const running = Object.fromEntries(
    chainNames.map((name, index) => [name, `http://127.0.0.1:${config.devnetFirstPort + index}`]),
  ) as Record<ChainName, string>;
  const ids = await Promise.all(chainNames.map((name) => chainIdAt(running[name])));
  const reuse =
    config.devnetFirstPort !== 0 &&
    chainNames.every((name, index) => ids[index] === chains[name].id);
  let world: World | null = null;
  if (!reuse) {
    console.error("(no local world running on the configured ports: starting a temporary one)");
    world = await startWorld({});
  }
  try {
    const rpcUrls = Object.fromEntries(
      chainNames.map((name) => [name, [world ? world.chains[name].rpcUrl : running[name]]]),
    ) as Record<ChainName, string[]>;
    const history = createHistoryReader({ rpcUrls, factsRpcUrls: rpcUrls });
    // Heads known first, so the history rides in the facts' request from the first check.
    await history.prime();
    const engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history,
      lists: await loadAddressLists({ files: [demoAddressListFile], watch: false }),
    });
    const input = { address, chain, ...(from && { from }) };
    const result = deep ? await engine.deep(input) : await engine.check(input);
    if (result.type === "unavailable") {
      console.error(`could not read ${result.chain}: ${result.error}`);
      return 1;
    }
    console.log(json ? JSON.stringify(result.report, null, 2) : result.report.report);
    return 0;
  } finally {
    await world?.stop();
  }
}

process.exitCode = await main();
