import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { afterEach, describe, expect, it } from "vitest";
import { devAttestationKeyFile, loadAttestationKey } from "./loadAttestationKey";

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-key-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("loadAttestationKey", () => {
  it("generates the dev key once, private to the owner, and reuses it", async () => {
    const dataDir = tempDir();
    const first = await loadAttestationKey({ dataDir, now: new Date("2026-03-05T00:00:00Z") });
    expect(first.kid).toBe("presend-2026-03");
    const path = join(dataDir, devAttestationKeyFile);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = await loadAttestationKey({ dataDir });
    expect(again).toEqual(first);
    expect(JSON.parse(readFileSync(path, "utf8")).d).toBe(first.d);
  });

  it("names the bad field of an operator key file", async () => {
    const dataDir = tempDir();
    const first = await loadAttestationKey({ dataDir });
    const file = join(dataDir, "operator.json");
    writeFileSync(file, JSON.stringify({ ...first, kid: "mykey" }));
    await expect(loadAttestationKey({ dataDir, file })).rejects.toThrow(
      `attestation key file ${file}: kid: kid must have the form presend-YYYY-MM`,
    );
    // The public half given instead of the private key: zod's message does not say which field.
    const { d: _private, ...publicHalf } = first;
    writeFileSync(file, JSON.stringify(publicHalf));
    await expect(loadAttestationKey({ dataDir, file })).rejects.toThrow(
      `attestation key file ${file}: d: `,
    );
  });

  it("refuses an operator key file whose fields are not one key pair, naming the file", async () => {
    const dataDir = tempDir();
    const key = await loadAttestationKey({ dataDir });
    const other = await loadAttestationKey({ dataDir: tempDir() });
    const file = join(dataDir, "operator.json");
    for (const broken of [
      { ...key, d: key.d.slice(0, 20) },
      { ...key, d: other.d },
      { ...key, x: other.x },
    ]) {
      writeFileSync(file, JSON.stringify(broken));
      const loaded = loadAttestationKey({ dataDir, file });
      await expect(loaded).rejects.toBeInstanceOf(AttestationError);
      await expect(loaded).rejects.toThrow(
        `attestation key file ${file}: x, y and d are not one P-256 key pair`,
      );
    }
  });
});
