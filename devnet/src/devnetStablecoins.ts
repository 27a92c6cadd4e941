import { type ChainName, chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import type { StablecoinSpec } from "./installStablecoin";

/**
 * The stablecoins the local world installs on a chain, at the mainnet addresses of
 * shared/chains: native USDC (under its EIP-712 domain, the one x402 signs for), USDT, and the
 * bridged USDC variant where the chain has one (the local world gives it the same domain).
 * @example for (const token of devnetStablecoins("base")) await installStablecoin(client, { ...token, minter });
 */
export function devnetStablecoins(name: ChainName): StablecoinSpec[] {
  const chain = chains[name];
  const specs: StablecoinSpec[] = [
    { ...chain.usdc, ...nativeUsdcDomain },
    { ...chain.usdt, name: "Tether USD", version: "1" },
  ];
  if (chain.usdcBridged) specs.push({ ...chain.usdcBridged, ...nativeUsdcDomain });
  return specs;
}
