import { readFile } from "node:fs/promises";
import {
  type AttestationKey,
  type PreviousAttestationKey,
  PreviousAttestationKeySchema,
} from "@presend/shared/attestation/attestationSchemas";
import { verifyKeyRotationStatement } from "@presend/shared/attestation/verifyKeyRotationStatement";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";

/**
 * The keys the attestation was signed with before the current one (ATTESTATION_PREVIOUS_KEYS_FILE:
 * a JSON array of `{key, validUntil, statement?}`), listed in the discovery document so a report
 * fetched again after a rotation can be verified by the key that signed it. Each statement must
 * be that key's signature over the current key or another listed one, taking over at its
 * validUntil: a list clients would refuse to follow is refused at start. None without a file.
 * @example const previous = await loadPreviousAttestationKeys(config.attestationPreviousKeysFile, current);
 */
export async function loadPreviousAttestationKeys(
  file: string | undefined,
  current: AttestationKey,
): Promise<PreviousAttestationKey[]> {
  if (file === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (cause) {
    throw new AttestationError(`previous attestation keys file ${file} is not readable JSON`, {
      cause,
    });
  }
  const parsed = z.array(PreviousAttestationKeySchema).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AttestationError(
      `previous attestation keys file ${file}: ${issue?.path.join(".") || "list"}: ${issue?.message ?? "invalid"} (expected [{ "key": <public ES256 JWK>, "validUntil": <ISO time>, "statement"?: <rotation statement JWS> }])`,
    );
  }
  const previous = parsed.data;
  const known = new Map<string, string>();
  for (const key of [current, ...previous.map((entry) => entry.key)]) {
    known.set(await calculateJwkThumbprint(key, "sha256"), key.kid);
  }
  for (const [index, entry] of previous.entries()) {
    if (entry.statement === undefined) continue;
    const where = `previous attestation keys file ${file}: ${index}.statement (kid ${entry.key.kid})`;
    const checked = await verifyKeyRotationStatement(entry.statement, entry.key);
    if (checked.type === "invalid") throw new AttestationError(`${where}: ${checked.message}`);
    const { claims } = checked;
    if (known.get(claims.next) !== claims.nextKid || claims.nextKid === entry.key.kid) {
      throw new AttestationError(
        `${where}: it hands over to ${claims.nextKid} (${claims.next}), which is neither the current key ${current.kid} nor another listed key`,
      );
    }
    // The client keeps the old key valid until the statement's time: one time, not two.
    if (Date.parse(claims.since) !== Date.parse(entry.validUntil)) {
      throw new AttestationError(
        `${where}: it says the next key took over at ${claims.since}, but validUntil is ${entry.validUntil}`,
      );
    }
  }
  return previous;
}
