const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/**
 * Why `value` is not a Solana address (base58 of exactly 32 bytes), or undefined when it is one.
 * @example solanaAddressProblem("0x12") // "not base58"
 */
export function solanaAddressProblem(value: string): string | undefined {
  if (value.length === 0) return "empty";
  let number = 0n;
  for (const char of value) {
    const digit = alphabet.indexOf(char);
    if (digit < 0) return "not base58";
    number = number * 58n + BigInt(digit);
  }
  // Each leading "1" encodes one leading zero byte.
  const leadingZeros = value.length - value.replace(/^1+/, "").length;
  const bytes = leadingZeros + (number === 0n ? 0 : Math.ceil(number.toString(16).length / 2));
  return bytes === 32 ? undefined : `decodes to ${bytes} bytes, not 32`;
}
