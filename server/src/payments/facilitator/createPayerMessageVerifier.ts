import type { Address } from "viem";
import {
  BaseError,
  createPublicClient,
  type EIP1193RequestFn,
  ExecutionRevertedError,
  type Hex,
  type Transport,
} from "viem";
import { getNodeError } from "viem/utils";
import { keyHiddenFallbackTransport } from "../../http/keyHiddenFallbackTransport";
import { SignatureUnverifiable } from "./SignatureUnverifiable";

/**
 * Whether `signature` is `address`'s EIP-191 signature of `message` on the payment chain; rejects
 * with SignatureUnverifiable when that cannot be known (the chain did not answer the read).
 */
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
 * it out of its own reports. An ECDSA signature of the payer verifies without the chain (viem
 * recovers it when the call fails). Anything else needs the chain's answer: viem's verifyMessage
 * says false for a call that never reached the chain just as for one the account refused, so this
 * verification's requests are watched, and one that failed other than by a revert (the account's
 * own "no") makes the answer SignatureUnverifiable rather than false.
 * @example const verify = createPayerMessageVerifier({ rpcUrls }); await verify({ address, message, signature });
 */
export function createPayerMessageVerifier(options: {
  rpcUrls: readonly string[];
  timeoutMs?: number;
}): PayerMessageVerifier {
  // Each call bounded in time and never retried by viem, as every payment-chain read here.
  const transport = keyHiddenFallbackTransport(options.rpcUrls, {
    timeoutMs: options.timeoutMs ?? 3_000,
    retryCount: 0,
  });
  return async ({ address, message, signature }) => {
    let unread: unknown;
    const watched: Transport = (parameters) => {
      const built = transport(parameters);
      const request = (async (args, requestOptions) => {
        try {
          return await built.request(args, requestOptions);
        } catch (error) {
          if (!reverted(error)) unread = error;
          throw error;
        }
      }) as EIP1193RequestFn;
      return { ...built, request };
    };
    // A client of its own per verification: what its requests met is this verification's alone.
    const client = createPublicClient({ cacheTime: 0, transport: watched });
    const valid = await client.verifyMessage({ address, message, signature }).catch(() => false);
    if (valid) return true;
    if (unread !== undefined) throw new SignatureUnverifiable({ cause: unread });
    return false;
  };
}

/** The chain answered the call by reverting it: the validator's (or the account's) refusal. */
function reverted(error: unknown): boolean {
  return error instanceof BaseError && getNodeError(error, {}) instanceof ExecutionRevertedError;
}
