import { type ChainName, chains } from "@presend/shared/chains/chains";
import type { StablecoinSpec } from "./installStablecoin";

/**
 * The stablecoins the local world installs on a chain, at the mainnet addresses of
 * shared/chains: native USDC ("USD Coin", version "2": the EIP-712 domain x402 signs for), USDT,
 * and the bridged USDC variant where the chain has one.
 * @example for (const token of devnetStablecoins("base")) await installStablecoin(client, { ...token, minter });
 */
export function devnetStablecoins(name: ChainName): StablecoinSpec[] {
  const chain = chains[name];
  const specs: StablecoinSpec[] = [
    { ...chain.usdc, name: "USD Coin", version: "2" },
    { ...chain.usdt, name: "Tether USD", version: "1" },
  ];
  if (chain.usdcBridged) specs.push({ ...chain.usdcBridged, name: "USD Coin", version: "2" });
  return specs;
}
