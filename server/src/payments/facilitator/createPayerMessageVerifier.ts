import type { Address, Hex } from "viem";
import { createBoundedRpcClient } from "../../http/createBoundedRpcClient";

/** Whether `signature` is `address`'s EIP-191 signature of `message` on the payment chain. */
export type PayerMessageVerifier = (args: {
  address: Address;
  message: string;
  signature: Hex;
}) => Promise<boolean>;

/**
 * Checks a payer's EIP-191 signature (the /receipts proof, a Sign-In-With-X message) as the
 * payment chain sees the payer: an EOA's ECDSA signature, a deployed smart account's through its
 * ERC-1271 `isValidSignature`, a counterfactual one's ERC-6492 wrapper (viem's verifyMessage:
 * one eth_call of the universal validator). A payer whose wallet is a smart account (Coinbase
 * Smart Wallet, a Safe) pays with such signatures, so a check by ECDSA recovery alone would lock
 * it out of its own reports. When the chain cannot be read, an ECDSA signature still verifies
 * (viem falls back to recovery) and anything else throws.
 * @example const verify = createPayerMessageVerifier({ rpcUrls }); await verify({ address, message, signature });
 */
export function createPayerMessageVerifier(options: {
  rpcUrls: readonly string[];
  timeoutMs?: number;
}): PayerMessageVerifier {
  const client = createBoundedRpcClient(options.rpcUrls, {
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
  });
  return ({ address, message, signature }) => client.verifyMessage({ address, message, signature });
}
