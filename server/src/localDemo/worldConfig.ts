import { demoAddressListFile, devnetPrivateKey, type World } from "@presend/devnet";
import { type ChainName, chainNames } from "@presend/shared/chains/chains";
import type { Config } from "../config/loadConfig";

/**
 * The one place a local world becomes plain configuration: its chains' RPC URLs, its payTo, its
 * facilitator key, the receiver authorizer of its channels and its demo address list, each
 * unless the environment set it (RPC_URLS_*, PAY_TO, FACILITATOR_PRIVATE_KEY,
 * RECEIVER_AUTHORIZER_KEY, ADDRESS_LISTS).
 * @example const server = await startServer(worldConfig(loadConfig(process.env), world));
 */
export function worldConfig(config: Config, world: World): Config {
  const rpcUrls = Object.fromEntries(
    chainNames.map((name) => [name, config.rpcUrls[name] ?? [world.chains[name].rpcUrl]]),
  ) as Record<ChainName, string[]>;
  return {
    ...config,
    rpcUrls,
    payTo: config.payTo ?? world.accounts.payTo.address,
    facilitatorPrivateKey: config.facilitatorPrivateKey ?? world.accounts.facilitator.privateKey,
    receiverAuthorizerKey:
      config.receiverAuthorizerKey ?? devnetPrivateKey("local world: receiver authorizer"),
    addressLists: config.addressLists.length > 0 ? config.addressLists : [demoAddressListFile],
  };
}
