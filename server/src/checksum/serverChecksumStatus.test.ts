import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { getAddress, keccak256, toHex } from "viem";
import { describe, expect, it } from "vitest";
import { serverChecksumStatus } from "./serverChecksumStatus";

describe("serverChecksumStatus", () => {
  it("gives viem's EIP-55 form for any address, in every case it may come in", () => {
    for (let index = 0; index < 2_000; index++) {
      const lower = keccak256(toHex(index)).slice(0, 42);
      const eip55 = getAddress(lower);
      expect(serverChecksumStatus(lower)).toEqual(checksumStatus(lower));
      expect(serverChecksumStatus(lower).normalized).toBe(eip55);
      expect(serverChecksumStatus(eip55)).toMatchObject({ valid: true, normalized: eip55 });
      const upper = `0x${lower.slice(2).toUpperCase()}`;
      // One case carries no checksum, unless it is the EIP-55 form itself (1 address in 4,000).
      expect(serverChecksumStatus(upper).checksum.status).toBe(
        upper === eip55 ? "valid" : "missing",
      );
      expect(serverChecksumStatus(upper)).toEqual(checksumStatus(upper));
    }
  });

  it("refuses what the shared check refuses, for the same reason", () => {
    const vitalik = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    for (const input of [
      "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046",
      "0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      "0x1234",
      "",
      `${vitalik}00`,
      `  ${vitalik}\n`,
    ]) {
      expect(serverChecksumStatus(input)).toEqual(checksumStatus(input));
    }
  });

  it("hashes each text afresh: no state carries from one address to the next", () => {
    const first = "0x5982758b12b31d28debec877d26d26c9a0cb7bfa";
    const second = "0xb1cc12a0f204b85edbfe7f08bbc11687801b3519";
    const alone = serverChecksumStatus(second).normalized;
    serverChecksumStatus(first);
    expect(serverChecksumStatus(second).normalized).toBe(alone);
    expect(alone).toBe(getAddress(second));
  });
});
