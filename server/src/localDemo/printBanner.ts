import type { World } from "@presend/devnet";
import { chainNames } from "@presend/shared/chains/chains";
import { shownRpcUrl } from "../http/shownRpcUrl";
import type { RunningServer } from "../startServer";

/**
 * What `npm start` prints: the API URL, each chain's RPC URL, the demo addresses with the verdict
 * each should get, and a command that can be pasted as is. A mainnet server prints the same
 * lines to its log, so each RPC URL shows its origin only (a provider's key stays out of it).
 * @example console.log(formatBanner(server));
 */
export function formatBanner(server: RunningServer & { world?: World }): string {
  const lines = [`presend API   ${server.url}`, ""];
  lines.push(server.world ? "Local chains (anvil):" : "Chains:");
  for (const name of chainNames) {
    const id = server.world?.chains[name].chainId;
    lines.push(
      `  ${name.padEnd(9)} ${id === undefined ? "" : `${String(id).padEnd(6)} `}${server.rpcUrls[name].map(shownRpcUrl).join(", ")}`,
    );
  }
  const world = server.world;
  if (world) {
    lines.push("", "Demo addresses (expected verdict for /check and /deep on the given chain):");
    lines.push(
      `  ${"address".padEnd(42)}  ${"chain".padEnd(9)}  ${"check".padEnd(7)}  ${"deep".padEnd(7)}  what`,
    );
    for (const demo of world.demo) {
      lines.push(
        `  ${demo.address}  ${demo.chain.padEnd(9)}  ${demo.expected.check.padEnd(7)}  ${demo.expected.deep.padEnd(7)}  ${demo.label}`,
      );
    }
    const withSender = world.demo.filter((demo) => demo.withFrom);
    const sender = withSender[0]?.withFrom?.from;
    if (sender) {
      lines.push("", `The same with from ${sender} (the sender with history):`);
      for (const demo of withSender) {
        const { check, deep } = demo.withFrom ?? { check: "-", deep: "-" };
        lines.push(
          `  ${demo.address}  ${demo.chain.padEnd(9)}  ${check.padEnd(7)}  ${deep.padEnd(7)}  ${demo.label}`,
        );
      }
    }
    const example = world.demo.find((demo) => demo.expected.check === "ok") ?? world.demo[0];
    // The local Base chain too: a payment channel whose answer was lost resyncs from its escrow.
    const clientEnv = `PRESEND_URL=${server.url} PRESEND_BASE_RPC_URL=${world.chains.base.rpcUrl} PRESEND_PRIVATE_KEY=${world.accounts.payer.privateKey}`;
    lines.push(
      "",
      `Demo payer ${world.accounts.payer.address} holds local USDC on base; try:`,
      `  curl '${server.url}/validate?address=${example?.address}'`,
      `  ${clientEnv} npx presend check ${example?.address} --chain ${example?.chain}`,
    );
    const poisoned = withSender.find((demo) => demo.withFrom?.check === "danger");
    if (poisoned && sender) {
      lines.push(
        `  ${clientEnv} npx presend check ${poisoned.address} --chain ${poisoned.chain} --from ${sender}`,
      );
    }
  }
  lines.push("", "Ctrl-C stops everything.");
  return lines.join("\n");
}
