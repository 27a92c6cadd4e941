import { type Hex, keccak256, stringToBytes } from "viem";

/**
 * A private key derived from a label, so every devnet account has the same address on every run
 * and can be documented. Devnet only: anyone who reads this code knows these keys.
 * @example const payerKey = devnetPrivateKey("payer");
 */
export function devnetPrivateKey(label: string): Hex {
  return keccak256(stringToBytes(`presend devnet account: ${label}`));
}
