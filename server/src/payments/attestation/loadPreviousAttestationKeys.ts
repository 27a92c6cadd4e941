import { readFile } from "node:fs/promises";
import { AttestationKeySchema } from "@presend/shared/attestation/attestationSchemas";
import { AttestationError } from "@presend/shared/errors/AttestationError";
import { z } from "zod";

/** A key the server signed with before a rotation, and until when. */
export const PreviousAttestationKeySchema = z.object({
  /**
   * The public ES256 JWK (kid presend-YYYY-MM), as the discovery document carried it then;
   * strict, so a private part (d) in a published list is refused.
   */
  key: AttestationKeySchema.strict(),
  /** The last time it signed (ISO): reports paid until then carry signatures by it. */
  validUntil: z.iso.datetime({ offset: true }),
});
export type PreviousAttestationKey = z.infer<typeof PreviousAttestationKeySchema>;

/**
 * The keys the attestation was signed with before the current one (ATTESTATION_PREVIOUS_KEYS_FILE:
 * a JSON array of `{key, validUntil}`), listed in the discovery document so a report fetched
 * again after a rotation can be verified by the key that signed it. None without a file.
 * @example const previous = await loadPreviousAttestationKeys(config.attestationPreviousKeysFile);
 */
export async function loadPreviousAttestationKeys(
  file: string | undefined,
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
      `previous attestation keys file ${file}: ${issue?.path.join(".") || "list"}: ${issue?.message ?? "invalid"} (expected [{ "key": <public ES256 JWK>, "validUntil": <ISO time> }])`,
    );
  }
  return parsed.data;
}
