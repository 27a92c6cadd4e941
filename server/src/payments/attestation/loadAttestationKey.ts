import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { exportJWK, generateKeyPair, importJWK } from "jose";
import { z } from "zod";

/** The private ES256 JWK the server signs its attestation with (the public half is published). */
export const AttestationPrivateKeySchema = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  x: z.string().min(1),
  y: z.string().min(1),
  d: z.string().min(1),
  kid: z.string().regex(/^presend-\d{4}-\d{2}$/, "kid must have the form presend-YYYY-MM"),
});
export type AttestationPrivateKey = z.infer<typeof AttestationPrivateKeySchema>;

export type LoadAttestationKeyOptions = {
  /** A JWK file given by the operator (production). Must exist and parse. */
  file?: string;
  /** Where the dev key is generated once and kept when no file is given. */
  dataDir: string;
  now?: Date;
};

/**
 * A new ES256 attestation key named `kid` (a first start's dev key, or the next key of a
 * rotation).
 * @example const key = await generateAttestationKey(attestationKeyId(new Date()));
 */
export async function generateAttestationKey(kid: string): Promise<AttestationPrivateKey> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return AttestationPrivateKeySchema.parse({ ...(await exportJWK(privateKey)), kid });
}

/**
 * The public half of an attestation key, as the attestation and the discovery document
 * publish it.
 * @example const published = publicAttestationKey(key);
 */
export function publicAttestationKey(key: AttestationPrivateKey): AttestationKey {
  const { d: _private, ...publicPart } = key;
  return { ...publicPart, alg: "ES256", use: "sig" };
}

/** Name of the generated dev key inside the data dir. */
export const devAttestationKeyFile = "attestation-key.json";

/** kid of a key made at `date`: presend-YYYY-MM (UTC). */
export function attestationKeyId(date: Date): string {
  return `presend-${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

/**
 * Loads the attestation signing key: the operator's file, or the dev key in the data dir,
 * generated on first start so the published key (and every client's pin) stays the same.
 * @example const key = await loadAttestationKey({ dataDir: ".presend" });
 */
export async function loadAttestationKey(
  options: LoadAttestationKeyOptions,
): Promise<AttestationPrivateKey> {
  if (options.file !== undefined) return readKeyFile(options.file);
  const path = join(options.dataDir, devAttestationKeyFile);
  try {
    return await readKeyFile(path);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const jwk = await generateAttestationKey(attestationKeyId(options.now ?? new Date()));
  await mkdir(dirname(path), { recursive: true });
  // wx: never overwrite a key another process wrote meanwhile; clients pinned that one.
  try {
    await writeFile(path, `${JSON.stringify(jwk, null, 2)}\n`, { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return readKeyFile(path);
    throw error;
  }
  await chmod(path, 0o600);
  return jwk;
}

async function readKeyFile(path: string): Promise<AttestationPrivateKey> {
  const text = await readFile(path, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new AttestationError(`attestation key file ${path} is not JSON`, { cause });
  }
  const parsed = AttestationPrivateKeySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AttestationError(
      `attestation key file ${path}: ${issue?.path.join(".") || "key"}: ${issue?.message ?? "invalid"} (expected a private ES256 JWK with kid presend-YYYY-MM)`,
    );
  }
  // Each field a string is not yet a key: a truncated `d`, or `d` of one key with `x`, `y` of
  // another, failed only when the first attestation was signed, as a stack trace at start.
  try {
    await importJWK(parsed.data, "ES256");
  } catch (cause) {
    throw new AttestationError(
      `attestation key file ${path}: x, y and d are not one P-256 key pair (base64url, as exported)`,
      { cause },
    );
  }
  return parsed.data;
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}
