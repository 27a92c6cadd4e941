import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { afterAll, describe, expect, it } from "vitest";
import { loadPreviousAttestationKeys } from "./loadPreviousAttestationKeys";

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

describe("loadPreviousAttestationKeys", () => {
  it("is empty without a file and reads a list of public keys with their validity", async () => {
    expect(await loadPreviousAttestationKeys(undefined)).toEqual([]);
    const list = [{ key, validUntil: "2026-11-01T00:00:00Z" }];
    expect(await loadPreviousAttestationKeys(write("ok.json", JSON.stringify(list)))).toEqual(list);
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
  ])("refuses %s, naming the file", async (name, content) => {
    const file = write(`${name}.json`, content);
    const loading = loadPreviousAttestationKeys(file);
    await expect(loading).rejects.toBeInstanceOf(AttestationError);
    await expect(loadPreviousAttestationKeys(file)).rejects.toThrow(file);
  });
});
