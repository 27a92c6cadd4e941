import { readFile, rename, rm, writeFile } from "node:fs/promises";
import {
  type AttestationKey,
  type PreviousAttestationKey,
  PreviousAttestationKeySchema,
} from "@presend/shared/attestation/attestationSchemas";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";
import {
  attestationKeyId,
  generateAttestationKey,
  loadAttestationKey,
  publicAttestationKey,
} from "./loadAttestationKey";
import { signKeyRotationStatement } from "./signKeyRotationStatement";

export type RotateAttestationKeyOptions = {
  /** The key signing now (ATTESTATION_KEY_FILE). It signs the statement and is then retired. */
  keyFile: string;
  /** Where the new private key is written; never over an existing file. */
  outFile: string;
  /** ATTESTATION_PREVIOUS_KEYS_FILE: the retired key is added to it (created when missing). */
  previousKeysFile: string;
  /** When the new key takes over: the retiring key's validUntil, and the statement's time. */
  at: Date;
  /** kid of the new key; presend-YYYY-MM of `at` by default. */
  kid?: string;
};

export type RotatedAttestationKey = {
  next: AttestationKey;
  /** RFC 7638 thumbprint of the new key: what clients pin, for the announcement. */
  thumbprint: string;
  retired: PreviousAttestationKey;
};

/**
 * An attestation key rotation prepared: a new ES256 key, and the current key listed as previous
 * with its rotation statement (its signature over the new key), so clients that pinned it follow
 * to the new key. The servers sign with the new key once ATTESTATION_KEY_FILE points at outFile.
 * @example await rotateAttestationKey({ keyFile, outFile, previousKeysFile, at: new Date() });
 */
export async function rotateAttestationKey(
  options: RotateAttestationKeyOptions,
): Promise<RotatedAttestationKey> {
  const retiring = await loadAttestationKey({ file: options.keyFile, dataDir: "" });
  const kid = options.kid ?? attestationKeyId(options.at);
  if (kid === retiring.kid) {
    throw new AttestationError(
      `the new key's kid ${kid} is the current key's: clients tell keys apart by kid, give another (--kid presend-YYYY-MM)`,
    );
  }
  const previous = await readPrevious(options.previousKeysFile);
  const nextPrivate = await generateAttestationKey(kid);
  const next = publicAttestationKey(nextPrivate);
  const retired: PreviousAttestationKey = {
    key: publicAttestationKey(retiring),
    validUntil: options.at.toISOString(),
    statement: await signKeyRotationStatement(retiring, next, options.at),
  };
  // The list is staged before the key is written: a list that cannot be written (its directory
  // missing, not writable) must not leave a new key behind, which a second run would refuse to
  // overwrite.
  const temp = `${options.previousKeysFile}.${process.pid}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify([...previous, retired], null, 2)}\n`);
  } catch (cause) {
    throw new AttestationError(
      `cannot write the previous keys file ${options.previousKeysFile} (${errorCode(cause)}); nothing was written`,
      { cause },
    );
  }
  // wx: a key file that exists may be the one clients pin; it is never overwritten.
  try {
    await writeFile(options.outFile, `${JSON.stringify(nextPrivate, null, 2)}\n`, {
      flag: "wx",
      mode: 0o600,
    });
  } catch (cause) {
    await rm(temp, { force: true });
    const why =
      errorCode(cause) === "EEXIST"
        ? "it exists, and a key file is never overwritten"
        : errorCode(cause);
    throw new AttestationError(
      `cannot write the new key to ${options.outFile} (${why}); nothing was written`,
      { cause },
    );
  }
  await rename(temp, options.previousKeysFile);
  return { next, thumbprint: await calculateJwkThumbprint(next, "sha256"), retired };
}

async function readPrevious(file: string): Promise<PreviousAttestationKey[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = z.array(PreviousAttestationKeySchema).safeParse(json);
  if (!parsed.success) {
    throw new AttestationError(
      `previous attestation keys file ${file} is not a list of previous keys; fix it before rotating`,
    );
  }
  return parsed.data;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
