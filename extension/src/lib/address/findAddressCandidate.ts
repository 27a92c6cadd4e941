import { hexAddressSource } from "@presend/shared/address/addressPattern";
/** What a field's text holds that looks like an address: a full one, or a near miss. */
export type AddressCandidate =
  | { kind: "address"; value: string }
  | { kind: "near-miss"; value: string; hexLength: number };

const fullAddress = new RegExp(`(?:^|[^0-9a-zA-Z])(${hexAddressSource})(?![0-9a-zA-Z])`);
// A pasted address that lost or gained characters is the typo we most want to catch, so a
// 0x token a few characters off length 40 is reported too (never anything shorter).
const hexToken = /(?:^|[^0-9a-zA-Z])(0x[0-9a-fA-F]{36,44})(?![0-9a-zA-Z])/;
// Invisible characters (zero-width space and joiners, direction marks, the byte order mark: the
// Unicode format characters) copied along inside an address: it looks whole on screen, yet the
// field holds no address a wallet takes, and a page that strips them sends to one nobody checked.
const invisible = /\p{Cf}/gu;
const splitToken = /(?:^|[^0-9a-zA-Z])(0x[0-9a-fA-F\p{Cf}]{40,})(?![0-9a-zA-Z])/u;

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
  const split = splitToken.exec(text)?.[1];
  const hexLength = split ? split.replace(invisible, "").length - 2 : 0;
  if (split && hexLength === 40) return { kind: "near-miss", value: split, hexLength };
  return null;
}
