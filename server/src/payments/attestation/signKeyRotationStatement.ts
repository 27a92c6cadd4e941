import {
  type AttestationKey,
  keyRotationStatementType,
} from "@presend/shared/attestation/attestationSchemas";
import { CompactSign, calculateJwkThumbprint, importJWK } from "jose";
import type { AttestationPrivateKey } from "./loadAttestationKey";

/**
 * The retiring key's rotation statement: its ES256 signature over the key taking over (thumbprint
 * and kid) and the time it takes over, so clients that pinned the retiring key can follow.
 * @example const statement = await signKeyRotationStatement(oldKey, newPublicKey, new Date());
 */
export async function signKeyRotationStatement(
  retiring: AttestationPrivateKey,
  next: AttestationKey,
  since: Date,
): Promise<string> {
  const claims = {
    next: await calculateJwkThumbprint(next, "sha256"),
    nextKid: next.kid,
    since: since.toISOString(),
  };
  return new CompactSign(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "ES256", kid: retiring.kid, typ: keyRotationStatementType })
    .sign(await importJWK(retiring, "ES256"));
}
