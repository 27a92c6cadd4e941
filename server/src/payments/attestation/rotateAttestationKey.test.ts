import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { afterAll, describe, expect, it } from "vitest";
import { loadAttestationKey } from "./loadAttestationKey";
import { loadPreviousAttestationKeys } from "./loadPreviousAttestationKeys";
import { rotateAttestationKey } from "./rotateAttestationKey";

const dir = mkdtempSync(join(tmpdir(), "presend-rotate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("rotateAttestationKey", () => {
  it("writes a new key and lists the old one with its statement; two rotations make a chain the server starts with", async () => {
    const first = await loadAttestationKey({ dataDir: dir, now: new Date("2026-01-05Z") });
    const keyFile = join(dir, "attestation-key.json");
    const previousKeysFile = join(dir, "previous-keys.json");
    const at = new Date("2026-07-01T00:00:00Z");
    const rotated = await rotateAttestationKey({
      keyFile,
      outFile: join(dir, "key-2026-07.json"),
      previousKeysFile,
      at,
    });
    expect(rotated.next.kid).toBe("presend-2026-07");
    expect(rotated.next).not.toHaveProperty("d");
    expect(statSync(join(dir, "key-2026-07.json")).mode & 0o777).toBe(0o600);
    expect(rotated.retired).toMatchObject({
      key: { kid: first.kid, x: first.x },
      validUntil: at.toISOString(),
      statement: expect.any(String),
    });
    expect(await loadPreviousAttestationKeys(previousKeysFile, rotated.next)).toEqual([
      rotated.retired,
    ]);

    const again = await rotateAttestationKey({
      keyFile: join(dir, "key-2026-07.json"),
      outFile: join(dir, "key-2027-01.json"),
      previousKeysFile,
      at: new Date("2027-01-01T00:00:00Z"),
    });
    const chain = await loadPreviousAttestationKeys(previousKeysFile, again.next);
    expect(chain.map((entry) => entry.key.kid)).toEqual([first.kid, "presend-2026-07"]);
  });

  it("refuses to overwrite a key file, to reuse the current kid, or to extend a broken list", async () => {
    const keyFile = join(dir, "attestation-key.json");
    const at = new Date("2026-08-01T00:00:00Z");
    const previousKeysFile = join(dir, "other-previous.json");
    await expect(
      rotateAttestationKey({ keyFile, outFile: keyFile, previousKeysFile, at }),
    ).rejects.toBeInstanceOf(AttestationError);
    await expect(
      rotateAttestationKey({
        keyFile,
        outFile: join(dir, "same-kid.json"),
        previousKeysFile,
        at: new Date("2026-01-20Z"),
      }),
    ).rejects.toThrow(/kid presend-2026-01 is the current key's/);
    writeFileSync(previousKeysFile, "{");
    await expect(
      rotateAttestationKey({ keyFile, outFile: join(dir, "k.json"), previousKeysFile, at }),
    ).rejects.toThrow(/not a list of previous keys/);
    expect(readFileSync(previousKeysFile, "utf8")).toBe("{");
  });

  it("writes nothing when the previous keys file cannot be written, so the same command runs again once it can", async () => {
    const keyFile = join(dir, "attestation-key.json");
    const outFile = join(dir, "key-2026-09.json");
    const previousKeysFile = join(dir, "missing-dir", "previous-keys.json");
    const at = new Date("2026-09-01T00:00:00Z");
    await expect(rotateAttestationKey({ keyFile, outFile, previousKeysFile, at })).rejects.toThrow(
      /cannot write the previous keys file .*missing-dir.*ENOENT.*nothing was written/,
    );
    expect(existsSync(outFile)).toBe(false);

    const taken = join(dir, "taken-key.json");
    writeFileSync(taken, "{}");
    const listFile = join(dir, "untouched-previous.json");
    await expect(
      rotateAttestationKey({ keyFile, outFile: taken, previousKeysFile: listFile, at }),
    ).rejects.toThrow(/it exists, and a key file is never overwritten/);
    expect(readdirSync(dir).filter((name) => name.startsWith("untouched-previous"))).toEqual([]);

    const rotated = await rotateAttestationKey({
      keyFile,
      outFile,
      previousKeysFile: join(dir, "previous-2026-09.json"),
      at,
    });
    expect(rotated.next.kid).toBe("presend-2026-09");
  });
});
