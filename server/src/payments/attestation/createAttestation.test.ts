import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyAttestation } from "@presend/shared/attestation/verifyAttestation";
import { afterEach, describe, expect, it } from "vitest";
import { createAttestation } from "./createAttestation";
import { loadAttestationKey } from "./loadAttestationKey";

const payTo = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const paidIn = { network: "eip155:8453", asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" };
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-attest-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("createAttestation", () => {
  it("signs payTo, per-route maxPrice, network and asset that the shared verifier accepts", async () => {
    const key = await loadAttestationKey({ dataDir: tempDir() });
    const attestation = await createAttestation({
      key,
      payTo,
      maxPrice: { "/check": "10000", "/deep": "50000" },
      ...paidIn,
    });
    const block = attestation.current();
    expect(block.key).not.toHaveProperty("d");
    expect(block.key).toMatchObject({
      kty: "EC",
      crv: "P-256",
      alg: "ES256",
      use: "sig",
      kid: key.kid,
    });
    const result = await verifyAttestation({ block, route: "/deep", payTo, amount: "50000" });
    expect(result.type).toBe("valid");
    if (result.type === "valid") {
      expect(result.payload.exp - result.payload.iat).toBe(30 * 24 * 3600);
      expect(result.payload).toMatchObject(paidIn);
    }
  });

  it("re-signs in the background once past half its lifetime", async () => {
    let now = 1_800_000_000;
    const key = await loadAttestationKey({ dataDir: tempDir() });
    const attestation = await createAttestation({
      key,
      payTo,
      maxPrice: { "/check": "10000" },
      ...paidIn,
      ttlSeconds: 100,
      clock: () => now,
    });
    const first = attestation.current().jws;
    now += 60;
    expect(attestation.current().jws).toBe(first);
    await attestation.refresh();
    const second = attestation.current().jws;
    expect(second).not.toBe(first);
    const result = await verifyAttestation({
      block: attestation.current(),
      route: "/check",
      payTo,
      amount: "10000",
      now,
    });
    expect(result.type).toBe("valid");
  });
});
