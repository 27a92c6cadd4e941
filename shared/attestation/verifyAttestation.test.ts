import { CompactSign, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import type { AttestationBlock } from "./attestationSchemas";
import { verifyAttestation } from "./verifyAttestation";

const payTo = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const now = 1_800_000_000;

async function makeBlock(
  claims: Record<string, unknown> = {},
  kid = "presend-2026-11",
): Promise<{ block: AttestationBlock; sign: (payload: unknown) => Promise<string> }> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const key = {
    kty: "EC" as const,
    crv: "P-256" as const,
    alg: "ES256" as const,
    use: "sig" as const,
    x: jwk.x ?? "",
    y: jwk.y ?? "",
    kid,
  };
  const sign = (payload: unknown) =>
    new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: "ES256", kid })
      .sign(privateKey);
  const jws = await sign({
    payTo,
    maxPrice: { "/check": "10000", "/deep": "50000" },
    iat: now - 10,
    exp: now + 3600,
    ...claims,
  });
  return { block: { jws, key, note: "test" }, sign };
}

describe("verifyAttestation", () => {
  it("accepts a challenge whose payTo and price match the attestation", async () => {
    const { block } = await makeBlock();
    const result = await verifyAttestation({ block, route: "/check", payTo, amount: "10000", now });
    expect(result.type).toBe("valid");
    if (result.type === "valid") {
      expect(result.payload.maxPrice["/deep"]).toBe("50000");
      expect(result.thumbprint).toMatch(/^[\w-]{43}$/);
    }
  });

  it("accepts a price below the attested maximum and a lowercase payTo", async () => {
    const { block } = await makeBlock();
    const result = await verifyAttestation({
      block,
      route: "/deep",
      payTo: payTo.toLowerCase(),
      amount: "40000",
      now,
    });
    expect(result.type).toBe("valid");
  });

  it.each([
    [
      "payto_mismatch",
      { payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", amount: "10000", route: "/check" },
    ],
    ["price_above_attested", { payTo, amount: "10001", route: "/check" }],
    ["unknown_route", { payTo, amount: "1", route: "/admin" }],
  ] as const)("refuses %s", async (reason, challenge) => {
    const { block } = await makeBlock();
    const result = await verifyAttestation({ block, now, ...challenge });
    expect(result).toMatchObject({ type: "invalid", reason });
  });

  it.each([
    ["network_mismatch", { network: "eip155:1" }],
    ["asset_mismatch", { asset: "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48" }],
  ] as const)(
    "refuses %s when the attestation binds the network and asset",
    async (reason, challenge) => {
      const bound = {
        network: "eip155:8453",
        asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      };
      const { block } = await makeBlock(bound);
      const base = { block, route: "/check", payTo, amount: "10000", now };
      expect(await verifyAttestation({ ...base, ...bound })).toMatchObject({ type: "valid" });
      const result = await verifyAttestation({ ...base, ...bound, ...challenge });
      expect(result).toMatchObject({ type: "invalid", reason });
    },
  );

  it("compares network and asset only when both sides name them, the asset in any case", async () => {
    const base = { route: "/check", payTo, amount: "10000", now };
    const asset = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
    const unbound = await makeBlock();
    expect(
      await verifyAttestation({ ...base, block: unbound.block, network: "eip155:1", asset }),
    ).toMatchObject({ type: "valid" });
    const bound = await makeBlock({ network: "eip155:8453", asset });
    expect(await verifyAttestation({ ...base, block: bound.block })).toMatchObject({
      type: "valid",
    });
    expect(
      await verifyAttestation({ ...base, block: bound.block, asset: asset.toLowerCase() }),
    ).toMatchObject({ type: "valid" });
  });

  it.each(["-1", "", "0x1"])(
    "refuses an amount that is not a whole number of base units (%j)",
    async (amount) => {
      const { block } = await makeBlock();
      const result = await verifyAttestation({ block, route: "/check", payTo, amount, now });
      expect(result).toMatchObject({ type: "invalid", reason: "price_above_attested" });
    },
  );

  it("refuses an expired attestation", async () => {
    const { block } = await makeBlock({ iat: now - 7200, exp: now - 3600 });
    const result = await verifyAttestation({ block, route: "/check", payTo, amount: "10000", now });
    expect(result).toMatchObject({ type: "invalid", reason: "expired" });
  });

  it("allows a minute of clock drift past exp, and no more", async () => {
    const check = { route: "/check", payTo, amount: "10000", now };
    const withinLeeway = await makeBlock({ exp: now - 60 });
    expect(await verifyAttestation({ ...check, block: withinLeeway.block })).toMatchObject({
      type: "valid",
    });
    const pastLeeway = await makeBlock({ exp: now - 61 });
    expect(await verifyAttestation({ ...check, block: pastLeeway.block })).toMatchObject({
      type: "invalid",
      reason: "expired",
    });
  });

  it("refuses an attestation issued more than a minute in the future", async () => {
    const check = { route: "/check", payTo, amount: "10000", now };
    const withinLeeway = await makeBlock({ iat: now + 60 });
    expect(await verifyAttestation({ ...check, block: withinLeeway.block })).toMatchObject({
      type: "valid",
    });
    const pastLeeway = await makeBlock({ iat: now + 61 });
    expect(await verifyAttestation({ ...check, block: pastLeeway.block })).toMatchObject({
      type: "invalid",
      reason: "not_yet_valid",
    });
  });

  it("refuses a payload signed by another key (forged attestation)", async () => {
    const { block } = await makeBlock();
    const other = await makeBlock({ payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" });
    const forged = { ...block, jws: other.block.jws };
    const result = await verifyAttestation({
      block: forged,
      route: "/check",
      payTo,
      amount: "10000",
      now,
    });
    expect(result).toMatchObject({ type: "invalid", reason: "bad_signature" });
  });

  it("refuses a changed key when one is pinned (key substitution)", async () => {
    const pinned = await makeBlock();
    const first = await verifyAttestation({
      block: pinned.block,
      route: "/check",
      payTo,
      amount: "10000",
      now,
    });
    if (first.type !== "valid") throw new Error("expected valid");
    const replacement = await makeBlock();
    const result = await verifyAttestation({
      block: replacement.block,
      route: "/check",
      payTo,
      amount: "10000",
      now,
      pinnedThumbprint: first.thumbprint,
    });
    // The new key's thumbprint is what the user is shown to verify out of band.
    expect(result).toMatchObject({
      type: "invalid",
      reason: "key_changed",
      thumbprint: expect.stringMatching(/^[\w-]{43}$/),
    });
    expect(result).not.toMatchObject({ thumbprint: first.thumbprint });
  });

  it("refuses malformed blocks and payloads without the claims", async () => {
    expect(
      await verifyAttestation({ block: { jws: "x" }, route: "/check", payTo, amount: "1", now }),
    ).toMatchObject({
      reason: "malformed",
    });
    const { block, sign } = await makeBlock();
    const noClaims = { ...block, jws: await sign({ hello: "world" }) };
    expect(
      await verifyAttestation({ block: noClaims, route: "/check", payTo, amount: "1", now }),
    ).toMatchObject({ reason: "malformed" });
  });
});
