import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { type AttestationKey, keyRotationStatementType } from "./attestationSchemas";
import { verifyKeyRotationStatement } from "./verifyKeyRotationStatement";

async function makeKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const key: AttestationKey = {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    x: jwk.x ?? "",
    y: jwk.y ?? "",
    kid,
  };
  return { privateKey, key };
}

const sign = (
  privateKey: CryptoKey,
  claims: unknown,
  header: Record<string, unknown> = {},
): Promise<string> =>
  new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "ES256", typ: keyRotationStatementType, ...header })
    .sign(privateKey);

describe("verifyKeyRotationStatement", async () => {
  const old = await makeKey("presend-2026-01");
  const next = await makeKey("presend-2026-07");
  const claims = {
    next: await calculateJwkThumbprint(next.key, "sha256"),
    nextKid: next.key.kid,
    since: "2026-07-01T00:00:00.000Z",
  };

  it("reads the claims of a statement the old key signed", async () => {
    const statement = await sign(old.privateKey, claims, { kid: old.key.kid });
    expect(await verifyKeyRotationStatement(statement, old.key)).toEqual({
      type: "valid",
      claims,
    });
  });

  it.each([
    ["signed by another key", "next", {}, {}],
    ["of another type", "old", { typ: "presend-report+jws" }, {}],
    ["naming another kid", "old", { kid: "presend-2025-01" }, {}],
    ["with claims of another shape", "old", {}, { extra: true }],
    ["with a since that is no time", "old", {}, { since: "yesterday" }],
  ])("refuses a statement %s", async (_name, signer, header, extra) => {
    const privateKey = signer === "old" ? old.privateKey : next.privateKey;
    const statement = await sign(
      privateKey,
      { ...claims, ...extra },
      { kid: old.key.kid, ...header },
    );
    expect(await verifyKeyRotationStatement(statement, old.key)).toMatchObject({
      type: "invalid",
      message: expect.any(String),
    });
  });

  it("refuses what is no JWS", async () => {
    expect(await verifyKeyRotationStatement("a.b.c", old.key)).toMatchObject({ type: "invalid" });
  });
});
