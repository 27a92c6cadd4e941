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
});
