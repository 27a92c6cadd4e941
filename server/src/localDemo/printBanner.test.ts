import { devnetAccounts, senderWorld, worldRpcUrls } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import type { RunningServer } from "../startServer";
import { formatBanner } from "./printBanner";

describe("formatBanner", () => {
  it("lists every demo row, then the sender rows with their verdicts with from, and a --from command", () => {
    const world = sharedWorld();
    const rpcUrls = worldRpcUrls(world);
    // Only what the banner reads of a running server: its URL and RPC URLs.
    const server = { url: "http://127.0.0.1:8402", rpcUrls } as unknown as RunningServer;
    const banner = formatBanner({ ...server, world });
    for (const demo of world.demo) expect(banner).toContain(demo.address);
    const victim = devnetAccounts.poisoningVictim.address;
    const [, withFrom = ""] = banner.split(
      `The same with from ${victim} (the sender with history):`,
    );
    expect(withFrom).toMatch(
      new RegExp(`${senderWorld.freshLookalike}\\s+base\\s+danger\\s+danger\\s+fresh-lookalike`),
    );
    expect(banner).toContain(
      `npx presend check ${senderWorld.freshLookalike} --chain base --from ${victim}`,
    );
    // The commands name the local Base chain, so a channel whose answer was lost resyncs.
    expect(banner).toContain(`PRESEND_BASE_RPC_URL=${world.chains.base.rpcUrl} `);
  });

  it("shows a mainnet server's RPC endpoints by origin only: the banner goes to its log", () => {
    const rpcUrls = Object.fromEntries(
      chainNames.map((name) => [
        name,
        [`https://${name}-mainnet.g.alchemy.com/v2/SECRET-KEY`, `https://${name}.example/?key=K2`],
      ]),
    ) as Record<ChainName, string[]>;
    const server = { url: "https://presend.example", rpcUrls } as unknown as RunningServer;
    const banner = formatBanner(server);
    expect(banner).not.toMatch(/SECRET-KEY|K2/);
    expect(banner).toContain("base-mainnet.g.alchemy.com/..., https://base.example/...");
  });
});
