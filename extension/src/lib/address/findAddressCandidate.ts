import { hexAddressSource } from "@presend/shared/address/addressPattern";
/** What a field's text holds that looks like an address: a full one, or a near miss. */
export type AddressCandidate =
  | { kind: "address"; value: string }
  | { kind: "near-miss"; value: string; hexLength: number };

const fullAddress = new RegExp(`(?:^|[^0-9a-zA-Z])(${hexAddressSource})(?![0-9a-zA-Z])`);
// A pasted address that lost or gained characters is the typo we most want to catch, so a
// 0x token a few characters off length 40 is reported too (never anything shorter).
const hexToken = /(?:^|[^0-9a-zA-Z])(0x[0-9a-fA-F]{36,44})(?![0-9a-zA-Z])/;

/**
 * The first address-like token in `text`, or null when there is none.
 * @example findAddressCandidate("to: 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045") // { kind: "address", ... }
 */
export function findAddressCandidate(text: string): AddressCandidate | null {
  if (text.length > 10_000 || !text.includes("0x")) return null;
  const full = fullAddress.exec(text)?.[1];
  if (full) return { kind: "address", value: full };
  const near = hexToken.exec(text)?.[1];
  if (near) return { kind: "near-miss", value: near, hexLength: near.length - 2 };
  return null;
}
