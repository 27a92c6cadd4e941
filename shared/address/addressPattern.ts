/** An EVM address as text: 0x and 40 hex digits, any case (the checksum is judged elsewhere). */
export const hexAddressSource = "0x[0-9a-fA-F]{40}";

/**
 * The one test of "is this shaped like an address" every schema and parser uses. It says nothing
 * about the checksum: `checksumStatus` does that.
 * @example addressPattern.test("0xd8da6bf26964af9d7eed9e03e53415d37aa96045") // true
 */
export const addressPattern = new RegExp(`^${hexAddressSource}$`);
