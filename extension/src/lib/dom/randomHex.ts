/**
 * `bytes` random bytes as hex, from the Web Crypto RNG.
 * @example randomHex(16) // "9f1c…" (32 characters)
 */
export function randomHex(bytes: number, random: Pick<Crypto, "getRandomValues"> = crypto): string {
  return Array.from(random.getRandomValues(new Uint8Array(bytes)), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");
}
