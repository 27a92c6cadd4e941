import { describe, expect, it } from "vitest";
import { echoInput } from "./echoInput";

describe("echoInput", () => {
  it("echoes an address or a bytes32 id whole", () => {
    const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    expect(echoInput(address)).toBe(address);
    expect(echoInput(`0x${"ab".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
  });

  it("shortens a 5,000-character input to its ends and its length, marked as shortened", () => {
    const long = `0x${"1".repeat(4990)}deadbeef`;
    const echoed = echoInput(long);
    expect(echoed).toBe('"0x11111111…11deadbeef" (shortened: 5000 characters)');
    expect(echoed.length).toBeLessThan(60);
  });

  it("keeps a line a line: control characters and newlines show as ?", () => {
    expect(echoInput("0xab\ncd\u0007")).toBe("0xab?cd?");
  });

  it("shows a lookalike or invisible character as its code point, so a refused input never looks like a valid address", () => {
    // The last "A" is Cyrillic (U+0410): on screen the same address as the valid one.
    expect(echoInput("0x5982758b12b31D28DEBeC877D26d26C9A0cB7Bf\u0410")).toBe(
      "0x5982758b12b31D28DEBeC877D26d26C9A0cB7Bf\\u{410}",
    );
    expect(echoInput("0x5982758b12b31D28\u200bDEBeC877D26d26C9A0cB7BfA")).toBe(
      "0x5982758b12b31D28\\u{200B}DEBeC877D26d26C9A0cB7BfA",
    );
    expect(echoInput("vitalik.eth")).toBe("vitalik.eth");
    // Counted in characters as typed, not in the escapes shown for them.
    expect(echoInput(`0x${"\u0430".repeat(100)}`)).toBe(
      `"0x${"\\u{430}".repeat(8)}…${"\\u{430}".repeat(10)}" (shortened: 102 characters)`,
    );
  });
});
