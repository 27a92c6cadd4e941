import { describe, expect, it } from "vitest";
import { devCheckHelp, parseDevCheckArgs } from "./parseDevCheckArgs";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const sender = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";

describe("parseDevCheckArgs", () => {
  it("reads the address, the chain (base by default) and the flags, in any order", () => {
    expect(parseDevCheckArgs([address])).toEqual({
      args: { address, chain: "base", deep: false, json: false, from: null },
    });
    expect(
      parseDevCheckArgs([
        "--deep",
        address.toLowerCase(),
        "arbitrum",
        "--json",
        `--from=${sender}`,
      ]),
    ).toEqual({ args: { address, chain: "arbitrum", deep: true, json: true, from: sender } });
    expect(parseDevCheckArgs([address, "--from", sender])).toMatchObject({
      args: { from: sender },
    });
  });

  it("answers --help and -h with what each argument does, with or without an address", () => {
    for (const argv of [["--help"], ["-h"], [address, "--deep", "--help"]]) {
      expect(parseDevCheckArgs(argv)).toEqual({ help: devCheckHelp });
    }
    expect(devCheckHelp).toMatch(/^usage: npm run dev:check/);
    for (const flag of ["--deep", "--json", "--from", "--help"])
      expect(devCheckHelp).toContain(flag);
  });

  it("refuses a flag it does not know instead of running another check than the one asked for", () => {
    expect(parseDevCheckArgs([address, "--dep"])).toEqual({
      error: expect.stringMatching(/^unknown flag "--dep"\nusage: npm run dev:check/),
    });
    expect(parseDevCheckArgs([address, "--chain=ethereum"])).toEqual({
      error: expect.stringContaining("--chain"),
    });
  });

  it("says what is wrong with the address, the chain, the sender or an extra word", () => {
    expect(parseDevCheckArgs([])).toEqual({ error: expect.stringMatching(/^usage:/) });
    expect(parseDevCheckArgs(["0x12"])).toEqual({ error: expect.stringMatching(/^0x12: /) });
    expect(parseDevCheckArgs([address, "solana"])).toEqual({
      error: 'unknown chain "solana"; one of base, ethereum, arbitrum, optimism, polygon',
    });
    expect(parseDevCheckArgs([address, "--from=0x12"])).toEqual({
      error: expect.stringMatching(/^--from 0x12: /),
    });
    expect(parseDevCheckArgs([address, "base", "--deep", "extra"])).toEqual({
      error: expect.stringContaining('unexpected "extra"'),
    });
    expect(parseDevCheckArgs([address, "--from"])).toEqual({
      error: expect.stringContaining("--from"),
    });
  });
});
