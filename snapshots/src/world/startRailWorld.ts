import {
  artifacts,
  devnetAccounts,
  devnetClient,
  devnetPrivateKey,
  mintStablecoin,
  prepareDevnetChain,
  startAnvil,
} from "@presend/devnet";
import { addressPattern } from "@presend/shared/address/addressPattern";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { type Address, getAddress, parseEther, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { z } from "zod";

/** One demonstration USDC transfer the world makes: `from` is a label (its key is derived from it). */
export const TransferPlanSchema = z.array(
  z.object({
    chain: z.enum(["arbitrum", "base"]),
    from: z.string().min(1),
    to: z.string().regex(addressPattern),
    amount: z.string().regex(/^\d+(\.\d{1,6})?$/),
    at: z.iso.datetime(),
  }),
);
export type TransferPlan = z.infer<typeof TransferPlanSchema>;

export type RailChain = {
  rpcUrl: string;
  usdc: Address;
  /**
   * The first block of the world's rewound history. Anvil's genesis and set-up blocks carry the
   * wall-clock time; the clock is then set back to the plan's dates, so only blocks from here on
   * are ordered by timestamp.
   */
  searchFromBlock: number;
};

export type RailWorld = {
  chains: Record<"arbitrum" | "base", RailChain>;
  stop: () => Promise<void>;
};

const dayS = 86_400;

async function startChain(
  name: "arbitrum" | "base",
  plan: TransferPlan,
): Promise<{ chain: RailChain; stop: () => Promise<void> }> {
  const anvil = await startAnvil({ chainId: chains[name].id });
  try {
    const client = devnetClient(name as ChainName, anvil.rpcUrl);
    // Blocks only when a transaction is sent: block numbers and timestamps become reproducible.
    await client.setIntervalMining({ interval: 0 });
    await client.setAutomine(true);
    await prepareDevnetChain(client, name);
    const transfers = plan
      .filter((entry) => entry.chain === name)
      .map((entry) => ({ ...entry, seconds: Math.floor(Date.parse(entry.at) / 1000) }))
      .sort((a, b) => a.seconds - b.seconds);
    const first = transfers[0]?.seconds ?? Math.floor(Date.now() / 1000);
    await client.request({ method: "evm_setTime", params: [first - 2 * dayS] } as never);
    await client.mine({ blocks: 1 });
    const searchFromBlock = Number(await client.getBlockNumber());

    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    const token = chains[name].usdc.address;
    const senders = new Map(
      [...new Set(transfers.map((entry) => entry.from))].map((label) => [
        label,
        privateKeyToAccount(devnetPrivateKey(`snapshot demo payer: ${label}`)),
      ]),
    );
    for (const [label, account] of senders) {
      const total = transfers
        .filter((entry) => entry.from === label)
        .reduce((sum, entry) => sum + parseUnits(entry.amount, 6), 0n);
      await client.setBalance({ address: account.address, value: parseEther("1") });
      await mintStablecoin(client, { token, minter: faucet, to: account.address, amount: total });
    }
    for (const entry of transfers) {
      const account = senders.get(entry.from);
      if (!account) continue;
      await client.setNextBlockTimestamp({ timestamp: BigInt(entry.seconds) });
      await client.confirm(
        client.writeContract({
          account,
          address: token,
          abi: artifacts.PresendStablecoin.abi,
          functionName: "transfer",
          args: [getAddress(entry.to), parseUnits(entry.amount, 6)],
        }),
      );
    }
    return { chain: { rpcUrl: anvil.rpcUrl, usdc: token, searchFromBlock }, stop: anvil.stop };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

/**
 * Starts local Arbitrum and Base chains with USDC at its real addresses and makes the plan's
 * transfers, each in its own block at the planned time.
 * @example const world = await startRailWorld({ plan }); try { ... } finally { await world.stop(); }
 */
export async function startRailWorld(options: { plan: TransferPlan }): Promise<RailWorld> {
  const arbitrum = await startChain("arbitrum", options.plan);
  let base: Awaited<ReturnType<typeof startChain>>;
  try {
    base = await startChain("base", options.plan);
  } catch (error) {
    await arbitrum.stop();
    throw error;
  }
  return {
    chains: { arbitrum: arbitrum.chain, base: base.chain },
    stop: async () => {
      await Promise.all([arbitrum.stop(), base.stop()]);
    },
  };
}
