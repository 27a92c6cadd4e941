import { type Address, checksumAddress } from "viem";
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

/**
 * EIP-55 status of any string that may be an address; viem does the hashing.
 * @example checksumStatus("0xd8da6bf26964af9d7eed9e03e53415d37aa96045").checksum.status // "missing"
 */
export function checksumStatus(input: string): ChecksumResult {
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
  // The EIP-55 form, computed once (one keccak; viem keeps recent ones): a mixed-case value is
  // valid exactly when it is this form.
  const normalized = checksumAddress(value as Address);
  const body = value.slice(2);
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
  if (normalized === value) {
    return {
      valid: true,
      normalized,
      checksum: { status: "valid", message: "Checksum is valid (EIP-55)." },
      problem: null,
    };
  }
  return {
    valid: false,
    normalized: null,
    checksum: {
      status: "invalid",
      message: "Wrong checksum (EIP-55): likely a typo. Do not send; get the address again.",
    },
    problem: "checksum_mismatch",
  };
}
