import { describe, expect, it } from "vitest";
import { parseWithBigints, stringifyWithBigints } from "./jsonWithBigints";

describe("jsonWithBigints", () => {
  it("round-trips EIP-3009 typed data with bigint fields", () => {
    const typedData = {
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: "0x8335" },
      message: { value: 10000n, validAfter: 0n, validBefore: 1_900_000_000n, nonce: "0xab" },
    };
    expect(parseWithBigints(stringifyWithBigints(typedData))).toEqual(typedData);
  });

  it("leaves ordinary objects alone", () => {
    expect(parseWithBigints('{"$bigint":"x","other":1}')).toEqual({ $bigint: "x", other: 1 });
    expect(parseWithBigints('{"$bigint":"12abc"}')).toEqual({ $bigint: "12abc" });
  });
});
