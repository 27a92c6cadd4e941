import { describe, expect, it } from "vitest";
import { findAddressCandidate } from "./findAddressCandidate";

const vitalik = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("findAddressCandidate", () => {
  it("finds a bare address", () => {
    expect(findAddressCandidate(vitalik)).toEqual({ kind: "address", value: vitalik });
  });

  it("finds an address inside surrounding text", () => {
    expect(findAddressCandidate(`send to ${vitalik}, thanks`)).toEqual({
      kind: "address",
      value: vitalik,
    });
  });

  it("reports a token one character short as a near miss", () => {
    expect(findAddressCandidate(vitalik.slice(0, -1))).toEqual({
      kind: "near-miss",
      value: vitalik.slice(0, -1),
      hexLength: 39,
    });
  });

  it("does not take 40 hex characters out of a longer hex string (a hash is not an address)", () => {
    const txHash = `0x${"ab".repeat(32)}`;
    expect(findAddressCandidate(txHash)).toBeNull();
    expect(findAddressCandidate(`ab${vitalik}`)).toBeNull();
  });

  it("reports near misses from 36 to 44 hex digits and nothing further off", () => {
    const hex = (digits: number) => `0x${"a".repeat(digits)}`;
    expect(findAddressCandidate(hex(36))).toMatchObject({ kind: "near-miss", hexLength: 36 });
    expect(findAddressCandidate(hex(44))).toMatchObject({ kind: "near-miss", hexLength: 44 });
    expect(findAddressCandidate(hex(35))).toBeNull();
    expect(findAddressCandidate(hex(45))).toBeNull();
  });

  it("reports an address an invisible character splits as a near miss, not as no address", () => {
    for (const character of ["\u200b", "\u200d", "\u2060", "\ufeff", "\u202e"]) {
      const split = `${vitalik.slice(0, 10)}${character}${vitalik.slice(10)}`;
      expect(findAddressCandidate(` ${split}\n`)).toEqual({
        kind: "near-miss",
        value: split,
        hexLength: 40,
      });
    }
    const split = `${vitalik.slice(0, 10)}\u200b${vitalik.slice(10)}`;
    expect(findAddressCandidate(`\u200b${split}`)).toMatchObject({
      kind: "near-miss",
      value: split,
    });
    // Invisible characters beside a whole address leave it whole.
    expect(findAddressCandidate(`\u200b${vitalik}\u200b`)).toEqual({
      kind: "address",
      value: vitalik,
    });
    expect(findAddressCandidate(`${vitalik.slice(0, 10)}\u200b${vitalik.slice(10)}ab`)).toBeNull();
  });

  it("ignores text without 0x and short hex values", () => {
    expect(findAddressCandidate("hello")).toBeNull();
    expect(findAddressCandidate("0x1234")).toBeNull();
  });
});
