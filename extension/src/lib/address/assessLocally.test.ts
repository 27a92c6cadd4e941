import { describe, expect, it } from "vitest";
import { assessLocally, specialAddressWarning } from "./assessLocally";

const vitalik = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
// Same first and last four hex characters, different middle: what a poisoner would craft.
const poisoned = "0xd8dA000000000000000000000000000000006045";

describe("assessLocally", () => {
  it("passes a correctly checksummed, unknown address", () => {
    const result = assessLocally({ kind: "address", value: vitalik }, []);
    expect(result.checksum.checksum.status).toBe("valid");
    expect(result.status).toBe("valid");
    expect(result.lookalikeOf).toBeNull();
    expect(result.payable).toBe(true);
  });

  it("flags a lookalike of an address used before", () => {
    const result = assessLocally({ kind: "address", value: poisoned.toLowerCase() }, [vitalik]);
    expect(result.checksum.checksum.status).toBe("missing");
    expect(result.lookalikeOf).toBe(vitalik);
  });

  it("does not flag the very address used before", () => {
    const result = assessLocally({ kind: "address", value: vitalik.toLowerCase() }, [vitalik]);
    expect(result.lookalikeOf).toBeNull();
  });

  it("refuses payment for a wrong checksum (likely a typo)", () => {
    const typo = vitalik.replace("d8dA", "d8Da");
    const result = assessLocally({ kind: "address", value: typo }, []);
    expect(result.checksum.checksum.status).toBe("invalid");
    expect(result.payable).toBe(false);
  });

  it("refuses payment for a near miss", () => {
    const result = assessLocally(
      { kind: "near-miss", value: vitalik.slice(0, -1), hexLength: 39 },
      [],
    );
    expect(result.checksum.problem).toBe("malformed");
    expect(result.status).toBe("malformed");
    expect(result.payable).toBe(false);
  });

  it("says an address an invisible character splits is no address, naming the character", () => {
    const split = `${vitalik.slice(0, 10)}\u200b${vitalik.slice(10)}`;
    const result = assessLocally({ kind: "near-miss", value: split, hexLength: 40 }, []);
    expect(result.status).toBe("malformed");
    expect(result.level).toBe("danger");
    expect(result.payable).toBe(false);
    expect(result.checksum.checksum.message).toContain("invisible character");
  });

  it("calls well-known addresses danger for free, and offers no payment where no key exists", () => {
    const sinks = {
      "0x0000000000000000000000000000000000000000": "Zero address",
      "0x000000000000000000000000000000000000dEaD": "Burn address",
      "0x0000000000000000000000000000000000000001": "Precompile",
      "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913": "Token contract",
    };
    for (const [address, label] of Object.entries(sinks)) {
      const result = assessLocally({ kind: "address", value: address }, []);
      expect({ level: result.level, label: result.label, payable: result.payable }).toEqual({
        level: "danger",
        label,
        payable: label === "Token contract",
      });
    }
    const usdc = assessLocally(
      { kind: "address", value: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" },
      [],
    );
    expect(usdc.special && specialAddressWarning(usdc.special)).toContain(
      "USDC token contract on Base",
    );
  });

  it("labels the chip by checksum when nothing worse is known, neutral until checked", () => {
    const valid = assessLocally({ kind: "address", value: vitalik }, []);
    expect({ level: valid.level, label: valid.label }).toEqual({
      level: "neutral",
      label: "Checksum OK · not checked",
    });
    expect(assessLocally({ kind: "address", value: vitalik.toLowerCase() }, []).level).toBe(
      "caution",
    );
    const lookalike = assessLocally({ kind: "address", value: poisoned.toLowerCase() }, [vitalik]);
    expect({ level: lookalike.level, label: lookalike.label }).toEqual({
      level: "danger",
      label: "Lookalike",
    });
  });

  it("says nothing about a token contract in a field that asks for one", () => {
    const usdc = { kind: "address", value: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" } as const;
    const result = assessLocally(usdc, [], { contractField: true });
    expect({ level: result.level, special: result.special, field: result.contractField }).toEqual({
      level: "neutral",
      special: null,
      field: true,
    });
    // Nobody holds the zero address's key, whatever the field asks for.
    const zero = { kind: "address", value: "0x0000000000000000000000000000000000000000" } as const;
    expect(assessLocally(zero, [], { contractField: true }).level).toBe("danger");
  });
});
