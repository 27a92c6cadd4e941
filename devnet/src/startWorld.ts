import { type ChainName, chainNames, chains } from "@presend/shared/chains/chains";
import { type DemoAddress, demoAddresses } from "./demoWorld";
import { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
import { devnetClient } from "./devnetClient";
import { prepareDevnetChain } from "./prepareDevnetChain";
import { seedDemoWorld } from "./seedDemoWorld";
import { type AnvilInstance, startAnvil } from "./startAnvil";

export type WorldChain = { chainId: number; rpcUrl: string; port: number };

export type StartWorldOptions = {
  /** Fixed loopback port per chain; chains without one get a free port. */
  ports?: Partial<Record<ChainName, number>>;
  /** Seed the demo addresses (default true); false leaves only tokens and Multicall3. */
  seedDemo?: boolean;
};

export type World = {
  chains: Record<ChainName, WorldChain>;
  demo: DemoAddress[];
  accounts: {
    /** Demo client key: ETH + 1000 USDC on base; signs x402 payments (CLI, e2e). */
    payer: DevnetAccount;
    /** In-process facilitator key: 10 ETH on base for settlement gas. */
    facilitator: DevnetAccount;
    /** The service's payTo on the local world; starts with nothing. */
    payTo: DevnetAccount;
    /** Minter of every devnet stablecoin, with ETH on every chain (tests mint with it). */
    faucet: DevnetAccount;
  };
  /** Process group of each chain's anvil (its watchdog's pid), for diagnostics and leak checks. */
  processGroupIds: number[];
  /** Milliseconds from the call to a fully seeded world. */
  startupMs: number;
  /** Stops every chain; nothing of the world keeps running. */
  stop: () => Promise<void>;
};

/**
 * Starts the local world: five anvil chains with the mainnet chain ids, stablecoins at their
 * mainnet addresses, Multicall3, and the demo addresses seeded with real transactions.
 * @example const world = await startWorld(); ...; await world.stop();
 */
export async function startWorld(options: StartWorldOptions = {}): Promise<World> {
  const started = performance.now();
  const launches = await Promise.allSettled(
    chainNames.map((name) => {
      const port = options.ports?.[name];
      return startAnvil(
        port === undefined ? { chainId: chains[name].id } : { chainId: chains[name].id, port },
      );
    }),
  );
  const anvils = launches.flatMap((launch) =>
    launch.status === "fulfilled" ? [launch.value] : [],
  );
  const stop = async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  };
  try {
    const failure = launches.find((launch) => launch.status === "rejected");
    if (failure) throw failure.reason;
    const byName = Object.fromEntries(
      chainNames.map((name, index) => [name, anvils[index] as AnvilInstance]),
    ) as Record<ChainName, AnvilInstance>;
    const clients = Object.fromEntries(
      chainNames.map((name) => [name, devnetClient(name, byName[name].rpcUrl)]),
    ) as Record<ChainName, ReturnType<typeof devnetClient>>;
    await Promise.all(chainNames.map((name) => prepareDevnetChain(clients[name], name)));
    if (options.seedDemo ?? true) await seedDemoWorld(clients);
    const worldChains = Object.fromEntries(
      chainNames.map((name) => {
        const { chainId, rpcUrl, port } = byName[name];
        return [name, { chainId, rpcUrl, port }];
      }),
    ) as Record<ChainName, WorldChain>;
    const { payer, facilitator, payTo, faucet } = devnetAccounts;
    return {
      chains: worldChains,
      demo: demoAddresses,
      accounts: { payer, facilitator, payTo, faucet },
      processGroupIds: anvils.flatMap((anvil) => (anvil.process.pid ? [anvil.process.pid] : [])),
      startupMs: Math.round(performance.now() - started),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
