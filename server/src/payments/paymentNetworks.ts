import { chains } from "@presend/shared/chains/chains";
import { getDefaultAsset } from "@x402/evm";

/** The networks presend takes payments on: Base, and Base Sepolia for an operator's dry run. */
export const paymentNetworks = {
  mainnet: {
    network: chains.base.caip2,
    /** null: the Base RPCs the engine reads (RPC_URLS_BASE) also carry the payments. */
    rpcUrl: null,
    /** null: a mainnet facilitator is always configured (URL or hosted provider). */
    facilitatorUrl: null,
  },
  testnet: {
    network: "eip155:84532",
    rpcUrl: "https://sepolia.base.org",
    /** The public x402 facilitator, which settles on Base Sepolia without a key. */
    facilitatorUrl: "https://x402.org/facilitator",
  },
} as const;

export type PaymentNetwork = (typeof paymentNetworks)[keyof typeof paymentNetworks]["network"];

/**
 * USDC on a payment network, as x402's own asset table names it: the token address and its
 * EIP-712 domain (Base's is "USD Coin", Base Sepolia's "USDC").
 * @example usdcOn("eip155:84532").address
 */
export function usdcOn(network: PaymentNetwork): {
  address: string;
  domain: { name: string; version: string };
} {
  const asset = getDefaultAsset(network);
  return { address: asset.asset, domain: { name: asset.name, version: asset.version } };
}
