import type { Address } from "viem";

/** The five chains presend checks, in the order the API documents them. */
export const chainNames = ["base", "ethereum", "arbitrum", "optimism", "polygon"] as const;

export type ChainName = (typeof chainNames)[number];

/** The EIP-712 domain a token signs EIP-3009 authorizations under (name and version). */
export type Eip712TokenDomain = { name: string; version: string };

export type StablecoinInfo = { address: Address; symbol: string; decimals: number };

/**
 * Circle's native USDC signs EIP-3009 authorizations under this domain on every chain here: what
 * an x402 payer signs over, and what the local world's token is deployed with.
 */
export const nativeUsdcDomain: Eip712TokenDomain = { name: "USD Coin", version: "2" };

export type ChainInfo = {
  name: ChainName;
  id: number;
  /** CAIP-2 identifier, as x402 v2 names networks. */
  caip2: `eip155:${number}`;
  label: string;
  nativeSymbol: string;
  usdc: StablecoinInfo;
  usdt: StablecoinInfo;
  /** The bridged (pre-native) USDC variant, where the chain has one. */
  usdcBridged?: StablecoinInfo;
  /**
   * An OP-stack rollup: every transaction also pays an L1 data fee, which the GasPriceOracle
   * predeploy (`gasPriceOracleAddress`) computes.
   */
  opStack?: true;
};

const usdc = (address: Address): StablecoinInfo => ({ address, symbol: "USDC", decimals: 6 });
const usdt = (address: Address): StablecoinInfo => ({ address, symbol: "USDT", decimals: 6 });

// The CAIP-2 name is derived from the id, so the two cannot disagree.
const chain = (info: Omit<ChainInfo, "caip2">): ChainInfo => ({
  ...info,
  caip2: `eip155:${info.id}`,
});

// One table of chain data. Ids, native symbols and the Multicall3 address are checked against
// viem's definitions (chains.test.ts); token addresses come from each issuer's documentation, and
// the local world installs the tokens at the same ones.
export const chains: Record<ChainName, ChainInfo> = {
  base: chain({
    name: "base",
    id: 8453,
    label: "Base",
    nativeSymbol: "ETH",
    usdc: usdc("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"),
    usdt: usdt("0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2"),
    opStack: true,
    usdcBridged: {
      address: "0xd9aAEc86B65D86f6A7B5B1b0c42FFA531710b6CA",
      symbol: "USDbC",
      decimals: 6,
    },
  }),
  ethereum: chain({
    name: "ethereum",
    id: 1,
    label: "Ethereum",
    nativeSymbol: "ETH",
    usdc: usdc("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
    usdt: usdt("0xdAC17F958D2ee523a2206206994597C13D831ec7"),
  }),
  arbitrum: chain({
    name: "arbitrum",
    id: 42161,
    label: "Arbitrum One",
    nativeSymbol: "ETH",
    usdc: usdc("0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
    usdt: usdt("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
    usdcBridged: {
      address: "0xFF970A61A04b1cA14834A43f5dE4533eBDDB5CC8",
      symbol: "USDC.e",
      decimals: 6,
    },
  }),
  optimism: chain({
    name: "optimism",
    id: 10,
    label: "OP Mainnet",
    nativeSymbol: "ETH",
    usdc: usdc("0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85"),
    usdt: usdt("0x94b008aA00579c1307B0EF2c499aD98a8ce58e58"),
    opStack: true,
    usdcBridged: {
      address: "0x7F5c764cBc14f9669B88837ca1490cCa17c31607",
      symbol: "USDC.e",
      decimals: 6,
    },
  }),
  polygon: chain({
    name: "polygon",
    id: 137,
    label: "Polygon PoS",
    nativeSymbol: "POL",
    usdc: usdc("0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
    usdt: usdt("0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
    usdcBridged: {
      address: "0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174",
      symbol: "USDC.e",
      decimals: 6,
    },
  }),
};

/** Multicall3, at the same address on all five chains (and on the local world). */
export const multicall3Address: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** The OP-stack GasPriceOracle predeploy, at the same address on every OP-stack chain. */
export const gasPriceOracleAddress: Address = "0x420000000000000000000000000000000000000F";

/** Narrows an arbitrary string to a supported chain name. */
export function isChainName(value: string): value is ChainName {
  return (chainNames as readonly string[]).includes(value);
}

/** The chain whose id is `id`, if it is one of the five. */
export function chainById(id: number): ChainInfo | undefined {
  return chainNames.map((name) => chains[name]).find((chain) => chain.id === id);
}
