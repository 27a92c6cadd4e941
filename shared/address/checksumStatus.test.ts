import { getAddress, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { checksumStatus } from "./checksumStatus";

const vitalik = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

describe("checksumStatus", () => {
  it.each([
    [vitalik, "valid", true, null],
    [vitalik.toLowerCase(), "missing", true, null],
    [`0x${vitalik.slice(2).toUpperCase()}`, "missing", true, null],
    ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046", "invalid", false, "checksum_mismatch"],
    ["0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045", "invalid", false, "checksum_mismatch"],
    ["0x1234", "invalid", false, "malformed"],
    ["hello", "invalid", false, "malformed"],
    ["", "invalid", false, "malformed"],
    [`${vitalik}00`, "invalid", false, "malformed"],
  ])("%s -> %s", (input, status, valid, problem) => {
    const result = checksumStatus(input);
    expect(result.checksum.status).toBe(status);
    expect(result.valid).toBe(valid);
    expect(result.problem).toBe(problem);
    expect(result.normalized).toBe(valid ? vitalik : null);
  });

  it("ignores surrounding whitespace from a paste", () => {
    expect(checksumStatus(`  ${vitalik}\n`).normalized).toBe(vitalik);
  });

  it("gives viem's EIP-55 form for any address, whatever case it came in", () => {
    for (let index = 0; index < 500; index++) {
      const lower = keccak256(toHex(index)).slice(0, 42);
      const eip55 = getAddress(lower);
      expect(checksumStatus(lower).normalized).toBe(eip55);
      expect(checksumStatus(eip55)).toMatchObject({ valid: true, normalized: eip55 });
      // A lowercase copy carries no checksum, unless the EIP-55 form is itself all lowercase.
      expect(checksumStatus(eip55.toLowerCase()).checksum.status).toBe(
        eip55 === eip55.toLowerCase() ? "valid" : "missing",
      );
    }
  });

  it("accepts an EIP-55 form whose letters all fall in one case as checksummed, not 'missing'", () => {
    // About one address in 4,000 is like this; these two were found by hashing random ones.
    const allLowerForm = "0x44f3831f5615d36f753fa10699df62b178183522";
    const allUpperForm = "0x79CC454DFE5499D5484CD212614EC62C54463DC4";
    for (const form of [allLowerForm, allUpperForm]) {
      expect(getAddress(form)).toBe(form);
      expect(checksumStatus(form)).toMatchObject({
        valid: true,
        normalized: form,
        checksum: { status: "valid" },
        problem: null,
      });
    }
    // The other case of the same address is not its EIP-55 form: one case, no checksum.
    expect(checksumStatus(allLowerForm.toUpperCase().replace("0X", "0x")).checksum.status).toBe(
      "missing",
    );
    expect(checksumStatus(allUpperForm.toLowerCase()).checksum.status).toBe("missing");
    // A typo in an all-lowercase form is caught: its EIP-55 form has upper-case letters.
    const typo = `${allLowerForm.slice(0, -1)}4`;
    expect(getAddress(typo)).not.toBe(typo);
    expect(checksumStatus(typo).checksum.status).toBe("missing");
  });

  it("says an address with no letter at all carries no checksum", () => {
    const digitsOnly = "0x1111111111111111111111111111111111111111";
    expect(getAddress(digitsOnly)).toBe(digitsOnly);
    expect(checksumStatus(digitsOnly)).toMatchObject({
      valid: true,
      normalized: digitsOnly,
      checksum: { status: "missing" },
    });
  });
});
