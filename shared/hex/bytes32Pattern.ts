/**
 * 32 bytes as text: 0x and 64 hex digits, any case. The shape of a transaction hash, an EIP-3009
 * authorization nonce and a private key; every schema and parser of those uses this one test.
 * @example bytes32Pattern.test(`0x${"ab".repeat(32)}`) // true
 */
export const bytes32Pattern = /^0x[0-9a-fA-F]{64}$/;
