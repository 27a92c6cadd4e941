import { type Address, isAddress, zeroAddress } from "viem";
import { type ChainName, chainNames, chains } from "../chains/chains";

export type SpecialAddressKind = "zero" | "burn" | "precompile" | "stablecoin";

export type SpecialAddress = {
  kind: SpecialAddressKind;
  /** What the address is, e.g. "ecRecover precompile" or "USDC". */
  label: string;
  /** For stablecoins: the chains where this address is that token's contract. */
  chains?: ChainName[];
};

// Addresses people use to destroy tokens on purpose: nobody holds a key for them.
const burnAddresses: Record<string, string> = {
  "0x000000000000000000000000000000000000dead": "0x…dEaD burn address",
  "0xdead000000000000000000000000000000000000": "0xdEaD… burn address",
  "0xdead000000000000000042069420694206942069": "0xdEaD…42069 burn address",
};

// Precompiled contracts (Ethereum 0x01-0x11 up to Prague's BLS12-381 set, and P256VERIFY at
// 0x100 from RIP-7212 / EIP-7951): they compute, they cannot send anything back.
const precompileNames = [
  "ecRecover",
  "SHA2-256",
  "RIPEMD-160",
  "identity",
  "modexp",
  "ecAdd (BN254)",
  "ecMul (BN254)",
  "ecPairing (BN254)",
  "BLAKE2f",
  "KZG point evaluation",
  "BLS12-381 G1ADD",
  "BLS12-381 G1MSM",
  "BLS12-381 G2ADD",
  "BLS12-381 G2MSM",
  "BLS12-381 PAIRING_CHECK",
  "BLS12-381 MAP_FP_TO_G1",
  "BLS12-381 MAP_FP2_TO_G2",
];

function precompileAddress(index: number): string {
  return `0x${index.toString(16).padStart(40, "0")}`;
}

const precompiles: Record<string, string> = Object.fromEntries([
  ...precompileNames.map((name, index) => [precompileAddress(index + 1), `${name} precompile`]),
  [precompileAddress(0x100), "P256VERIFY precompile"],
]);

// Every stablecoin contract of the five chains, keyed by lowercase address.
const stablecoins = new Map<string, { symbol: string; chains: ChainName[] }>();
for (const name of chainNames) {
  const chain = chains[name];
  for (const token of [chain.usdc, chain.usdt, chain.usdcBridged]) {
    if (!token) continue;
    const key = token.address.toLowerCase();
    const entry = stablecoins.get(key) ?? { symbol: token.symbol, chains: [] };
    entry.chains.push(name);
    stablecoins.set(key, entry);
  }
}

/**
 * What a well-known address is (zero, burn, precompile or a stablecoin contract), or null.
 * @example classifySpecialAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913") // { kind: "stablecoin", label: "USDC", chains: ["base"] }
 */
export function classifySpecialAddress(address: Address | string): SpecialAddress | null {
  if (!isAddress(address, { strict: false })) return null;
  const key = address.toLowerCase();
  if (key === zeroAddress) return { kind: "zero", label: "zero address" };
  const burn = burnAddresses[key];
  if (burn) return { kind: "burn", label: burn };
  const precompile = precompiles[key];
  if (precompile) return { kind: "precompile", label: precompile };
  const stablecoin = stablecoins.get(key);
  if (stablecoin) {
    return { kind: "stablecoin", label: stablecoin.symbol, chains: [...stablecoin.chains] };
  }
  return null;
}
