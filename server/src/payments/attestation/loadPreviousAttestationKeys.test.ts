import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { exportJWK, generateKeyPair } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { type AttestationPrivateKey, AttestationPrivateKeySchema } from "./loadAttestationKey";
import { loadPreviousAttestationKeys } from "./loadPreviousAttestationKeys";
import { signKeyRotationStatement } from "./signKeyRotationStatement";

const dir = mkdtempSync(join(tmpdir(), "presend-previous-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const key = {
  kty: "EC",
  crv: "P-256",
  alg: "ES256",
  use: "sig",
  x: "f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU",
  y: "x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0",
  kid: "presend-2026-01",
};
const write = (name: string, content: string) => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};

async function makeKey(
  kid: string,
): Promise<{ secret: AttestationPrivateKey; key: AttestationKey }> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const secret = AttestationPrivateKeySchema.parse({ ...(await exportJWK(privateKey)), kid });
  const { d: _private, ...publicPart } = secret;
  return { secret, key: { ...publicPart, alg: "ES256", use: "sig" } };
}

describe("loadPreviousAttestationKeys", async () => {
  const k1 = await makeKey("presend-2026-01");
  const k2 = await makeKey("presend-2026-07");
  const k3 = await makeKey("presend-2027-01");
  const handover = new Date("2026-07-01T00:00:00Z");

  it("is empty without a file and reads a list of public keys with their validity", async () => {
    expect(await loadPreviousAttestationKeys(undefined, k3.key)).toEqual([]);
    const list = [{ key, validUntil: "2026-11-01T00:00:00Z" }];
    expect(
      await loadPreviousAttestationKeys(write("ok.json", JSON.stringify(list)), k3.key),
    ).toEqual(list);
  });

  it("reads statements by which each key handed over to the current key or the next listed one", async () => {
    const list = [
      {
        key: k1.key,
        validUntil: handover.toISOString(),
        statement: await signKeyRotationStatement(k1.secret, k2.key, handover),
      },
      {
        key: k2.key,
        validUntil: "2027-01-01T00:00:00.000Z",
        statement: await signKeyRotationStatement(
          k2.secret,
          k3.key,
          new Date("2027-01-01T00:00:00Z"),
        ),
      },
    ];
    expect(
      await loadPreviousAttestationKeys(write("chain.json", JSON.stringify(list)), k3.key),
    ).toEqual(list);
  });

  it.each([
    ["signed by another key", "forged"],
    ["over a key that is not listed", "unknown"],
    ["at another time than validUntil", "time"],
  ])("refuses to start with a statement %s, naming the file and the key", async (_name, fault) => {
    const other = await makeKey("presend-2026-02");
    const statement =
      fault === "forged"
        ? await signKeyRotationStatement({ ...other.secret, kid: k1.key.kid }, k3.key, handover)
        : await signKeyRotationStatement(
            k1.secret,
            fault === "unknown" ? other.key : k3.key,
            handover,
          );
    const validUntil = fault === "time" ? "2026-06-30T00:00:00.000Z" : handover.toISOString();
    const file = write(`${fault}.json`, JSON.stringify([{ key: k1.key, validUntil, statement }]));
    const loading = loadPreviousAttestationKeys(file, k3.key);
    await expect(loading).rejects.toBeInstanceOf(AttestationError);
    await expect(loadPreviousAttestationKeys(file, k3.key)).rejects.toThrow(
      `${file}: 0.statement (kid presend-2026-01)`,
    );
  });

  it.each([
    ["not JSON", "{"],
    ["not a list", JSON.stringify({ key })],
    ["a key without validUntil", JSON.stringify([{ key }])],
    [
      "a private key (d)",
      JSON.stringify([{ key: { ...key, d: "secret" }, validUntil: "2026-11-01T00:00:00Z" }]),
    ],
    [
      "a kid of another form",
      JSON.stringify([{ key: { ...key, kid: "k1" }, validUntil: "2026-11-01T00:00:00Z" }]),
    ],
    [
      "an unknown field",
      JSON.stringify([{ key, validUntil: "2026-11-01T00:00:00Z", statment: "a.b.c" }]),
    ],
    [
      "a statement that is no JWS",
      JSON.stringify([{ key, validUntil: "2026-11-01T00:00:00Z", statement: "signed" }]),
    ],
  ])("refuses %s, naming the file", async (name, content) => {
    const file = write(`${name}.json`, content);
    const loading = loadPreviousAttestationKeys(file, k3.key);
    await expect(loading).rejects.toBeInstanceOf(AttestationError);
    await expect(loadPreviousAttestationKeys(file, k3.key)).rejects.toThrow(file);
  });
});
