import { describe, expect, it } from "vitest";
import { parseCliArgs, usage } from "./parseCliArgs";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("parseCliArgs", () => {
  it("parses a command with its options", () => {
    expect(
      parseCliArgs(["deep", address, "--chain", "arbitrum", "--json", "--max-price", "0.05"]),
    ).toEqual({
      type: "command",
      value: {
        command: "deep",
        address,
        chain: "arbitrum",
        from: null,
        json: true,
        maxPrice: 50_000n,
        paymentId: null,
        channel: true,
      },
    });
    expect(parseCliArgs(["check", address])).toMatchObject({
      value: { chain: "base", json: false, maxPrice: null, channel: true },
    });
    expect(parseCliArgs(["check", address, "--no-channel"])).toMatchObject({
      value: { channel: false },
    });
    expect(parseCliArgs(["check", address, "--max-price", "$0.01"])).toMatchObject({
      value: { maxPrice: 10_000n },
    });
    expect(parseCliArgs(["check", address, "--from", address.toLowerCase()])).toMatchObject({
      value: { from: address.toLowerCase() },
    });
    expect(parseCliArgs(["check", address, "--payment-id", "pay_0123456789abcdef"])).toMatchObject({
      value: { paymentId: "pay_0123456789abcdef" },
    });
  });

  it.each([
    [[], /missing command/],
    [["pay", address], /unknown command "pay"/],
    [["check"], /needs an address/],
    [["check", address, "extra"], /unexpected argument/],
    [["check", address, "--chain", "solana"], /unknown chain "solana"/],
    [["check", address, "--max-price", "cheap"], /--max-price/],
    [["check", address, "--max-price", "0.0000001"], /--max-price/],
    [["check", address, "--bogus"], /bogus/],
    [["check", address, "--payment-id", "short"], /--payment-id/],
    [["validate", address, "--from", address], /--from applies to check and deep/],
    [["validate", address, "--no-channel"], /--no-channel applies to check and deep/],
    [["check", address, "--payment-id", "pay 0123456789abcdef"], /--payment-id/],
    // Given twice, which one was meant is not known: neither wins.
    [
      ["check", address, "--chain", "base", "--chain", "ethereum"],
      /--chain is given more than once/,
    ],
    [["check", address, "--from", address, "--from", address], /--from is given more than once/],
    [
      ["deep", address, "--max-price", "0.05", "--max-price=5"],
      /--max-price is given more than once/,
    ],
    [
      [
        "check",
        address,
        "--payment-id",
        "pay_0123456789abcdef",
        "--payment-id",
        "pay_fedcba9876543210",
      ],
      /--payment-id is given more than once/,
    ],
  ])("refuses %j", (argv, message) => {
    const parsed = parseCliArgs(argv);
    expect(parsed.type).toBe("error");
    if (parsed.type === "error") expect(parsed.message).toMatch(message);
  });

  it("answers help", () => {
    expect(parseCliArgs(["--help"])).toEqual({ type: "help" });
  });

  it("names the MCP server's five tools, as the README does, and the operators' commands", () => {
    expect(usage).toMatch(/tools validate, check, deep, receipt,\s+close_channel;/);
    expect(usage).toContain("presend facilitator");
    expect(usage).toContain("presend rotate-attestation-key --out <file>");
  });
});
