import { type Address, keccak256, stringToBytes } from "viem";
import type { Checksum } from "../api/report";
import { addressPattern } from "./addressPattern";

export type ChecksumResult = {
  /** True when the value is a usable address: well formed, and its checksum (if any) is right. */
  valid: boolean;
  /** The EIP-55 form, only when valid. */
  normalized: Address | null;
  checksum: Checksum;
  /** Why it is not valid: not 0x + 40 hex at all, or a mixed-case checksum that does not match. */
  problem: "malformed" | "checksum_mismatch" | null;
};

/** Keccak-256 of an ASCII text (its bytes as they are), as 32 bytes. */
export type KeccakOfText = (text: string) => Uint8Array;

/** viem's Keccak-256 (@noble/hashes): small, and what every page script bundles anyway. */
const viemKeccakOfText: KeccakOfText = (text) => keccak256(stringToBytes(text), "bytes");

/**
 * EIP-55 status of any string that may be an address. The hash is viem's unless the caller
 * brings one of its own: the server passes a WebAssembly Keccak that costs a tenth as much, which
 * is most of what its free /validate route spends per request.
 * @example checksumStatus("0xd8da6bf26964af9d7eed9e03e53415d37aa96045").checksum.status // "missing"
 */
export function checksumStatus(
  input: string,
  keccakOfText: KeccakOfText = viemKeccakOfText,
): ChecksumResult {
  const value = input.trim();
  if (!addressPattern.test(value)) {
    return {
      valid: false,
      normalized: null,
      checksum: {
        status: "invalid",
        message: "Not an address: expected 0x followed by 40 hexadecimal characters.",
      },
      problem: "malformed",
    };
  }
  const body = value.slice(2);
  // The EIP-55 form, computed once: a mixed-case value is valid exactly when it is this form.
  const normalized = eip55(body.toLowerCase(), keccakOfText);
  // The EIP-55 form itself is checksummed even when its letters happen to be all one case (about
  // one address in 4,000): a typo would still change which letters must be upper case. Only a
  // form with no letter at all carries nothing to check.
  if (normalized === value && /[a-fA-F]/.test(body)) {
    return {
      valid: true,
      normalized,
      checksum: { status: "valid", message: "Address checksum is correct." },
      problem: null,
    };
  }
  // One case throughout carries no checksum: well formed, but a typo cannot be caught.
  if (body === body.toLowerCase() || body === body.toUpperCase()) {
    return {
      valid: true,
      normalized,
      checksum: {
        status: "missing",
        message: "No checksum (all one case): a typo in this address cannot be detected.",
      },
      problem: null,
    };
  }
  return {
    valid: false,
    normalized: null,
    checksum: {
      status: "invalid",
      message: "Wrong address checksum: likely a typo. Do not send; get the address again.",
    },
    problem: "checksum_mismatch",
  };
}

/**
 * The EIP-55 form of 40 lowercase hex digits: a letter is upper case where the matching nibble of
 * keccak256 of those digits is 8 or more. Hashed here rather than through viem's getAddress,
 * which keeps its answers in an LRU map whose every lookup (a delete and a set) costs time in
 * proportion to the map's size in V8: about 11 us at its 8,192 entries, more than the hash it
 * saves, so a server that had seen many addresses paid more per check than one that hashed.
 */
function eip55(lowerHex: string, keccakOfText: KeccakOfText): Address {
  const hash = keccakOfText(lowerHex);
  let checksummed = "0x";
  for (let index = 0; index < 40; index++) {
    const byte = hash[index >> 1] as number;
    const nibble = index % 2 === 0 ? byte >> 4 : byte & 0x0f;
    const digit = lowerHex[index] as string;
    checksummed += nibble >= 8 ? digit.toUpperCase() : digit;
  }
  return checksummed as Address;
}
