import type { NetworkCode } from "@presend/shared/api/snapshots/landscape";

export type NetworkId =
  | "base"
  | "base-sepolia"
  | "solana"
  | "solana-devnet"
  | "arbitrum"
  | "polygon"
  | "avalanche"
  | "ethereum"
  | "optimism";

export type NetworkInfo = { id: NetworkId; code: NetworkCode; family: "evm" | "solana" };

// x402 v1 names networks ("base", "solana"); v2 uses CAIP-2 ("eip155:8453", "solana:<genesis>").
const table: { info: NetworkInfo; names: string[] }[] = [
  { info: { id: "base", code: "BSE", family: "evm" }, names: ["base", "eip155:8453"] },
  {
    info: { id: "base-sepolia", code: "BSP", family: "evm" },
    names: ["base-sepolia", "eip155:84532"],
  },
  {
    info: { id: "solana", code: "SOL", family: "solana" },
    names: ["solana", "solana-mainnet", "solana:5eykt4usfv8p8njdtrepy1vzqkqzkvdp"],
  },
  {
    info: { id: "solana-devnet", code: "SLD", family: "solana" },
    names: ["solana-devnet", "solana:etwtrabzayq6imfeykouru166vu2xqa1"],
  },
  {
    info: { id: "arbitrum", code: "ARB", family: "evm" },
    names: ["arbitrum", "arbitrum-one", "eip155:42161"],
  },
  { info: { id: "polygon", code: "POL", family: "evm" }, names: ["polygon", "eip155:137"] },
  {
    info: { id: "avalanche", code: "AVX", family: "evm" },
    names: ["avalanche", "avalanche-c", "eip155:43114"],
  },
  {
    info: { id: "ethereum", code: "ETH", family: "evm" },
    names: ["ethereum", "mainnet", "eip155:1"],
  },
  { info: { id: "optimism", code: "OPT", family: "evm" }, names: ["optimism", "eip155:10"] },
];

const byName = new Map(table.flatMap(({ info, names }) => names.map((name) => [name, info])));

/**
 * The network a directory or x402 document names, in v1 or CAIP-2 form; undefined when unknown.
 * @example normalizeNetwork("eip155:42161") // { id: "arbitrum", code: "ARB", family: "evm" }
 */
export function normalizeNetwork(raw: string): NetworkInfo | undefined {
  return byName.get(raw.trim().toLowerCase());
}
