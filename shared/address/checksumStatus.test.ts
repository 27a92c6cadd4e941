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
      expect(checksumStatus(eip55.toLowerCase()).checksum.status).toBe("missing");
    }
  });
});
