import { isHash, keccak256, toHex } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { bytes32Pattern } from "./bytes32Pattern";

describe("bytes32Pattern", () => {
  it("takes what viem makes: a hash, a private key, an upper-case hash", () => {
    const hash = keccak256(toHex("presend"));
    for (const value of [hash, generatePrivateKey(), `0x${hash.slice(2).toUpperCase()}`]) {
      expect(bytes32Pattern.test(value)).toBe(true);
      expect(isHash(value)).toBe(true);
    }
  });

  it.each([
    ["one digit short", `0x${"a".repeat(63)}`],
    ["one digit long", `0x${"a".repeat(65)}`],
    ["no 0x", "a".repeat(64)],
    ["a non-hex digit", `0x${"a".repeat(63)}g`],
    ["an address", "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"],
    ["a trailing newline", `0x${"a".repeat(64)}\n`],
  ])("refuses %s", (_, value) => {
    expect(bytes32Pattern.test(value)).toBe(false);
  });
});
