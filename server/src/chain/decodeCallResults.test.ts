import fc from "fast-check";
import { decodeAbiParameters, encodeAbiParameters, type Hex, parseAbiParameters } from "viem";
import { describe, expect, it } from "vitest";
import { decodeCallResults } from "./decodeCallResults";

const resultsType = parseAbiParameters("(bool success, bytes returnData)[]");

describe("decodeCallResults", () => {
  it("decodes exactly what viem decodes, for any list of results", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ success: fc.boolean(), returnData: fc.uint8Array({ maxLength: 100 }) }),
          { maxLength: 20 },
        ),
        (items) => {
          const results = items.map((item) => ({
            success: item.success,
            returnData: `0x${Buffer.from(item.returnData).toString("hex")}` as Hex,
          }));
          const encoded = encodeAbiParameters(resultsType, [results]);
          const [viem] = decodeAbiParameters(resultsType, encoded);
          expect(decodeCallResults(encoded)).toEqual(viem);
        },
      ),
    );
  });

  it("throws on truncated, non-word or out-of-range answers", () => {
    const encoded = encodeAbiParameters(resultsType, [[{ success: true, returnData: "0x1234" }]]);
    expect(() => decodeCallResults(encoded.slice(0, -64) as Hex)).toThrow();
    expect(() => decodeCallResults(`${encoded}00` as Hex)).toThrow();
    expect(() => decodeCallResults(`0x${"f".repeat(64)}`)).toThrow();
    expect(() => decodeCallResults("0x")).toThrow();
  });
});
