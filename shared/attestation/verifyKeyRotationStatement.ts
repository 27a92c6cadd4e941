import { compactVerify, importJWK } from "jose";
import {
  type AttestationKey,
  type KeyRotationClaims,
  KeyRotationClaimsSchema,
  keyRotationStatementType,
} from "./attestationSchemas";

export type KeyRotationStatementResult =
  | { type: "valid"; claims: KeyRotationClaims }
  | { type: "invalid"; message: string };

/**
 * Verifies a rotation statement with the key that is said to have made it: an ES256 compact JWS
 * of type presend-key-rotation+jws, its kid that key's, its claims naming the key taking over.
 * The server checks its list with it at start; a client checks it with the key it pinned.
 * @example const r = await verifyKeyRotationStatement(entry.statement, pin.jwk);
 */
export async function verifyKeyRotationStatement(
  statement: string,
  by: AttestationKey,
): Promise<KeyRotationStatementResult> {
  let verified: Awaited<ReturnType<typeof compactVerify>>;
  try {
    verified = await compactVerify(statement, await importJWK(by, "ES256"), {
      algorithms: ["ES256"],
    });
  } catch {
    return {
      type: "invalid",
      message: `The rotation statement is not signed by key ${by.kid}.`,
    };
  }
  if (verified.protectedHeader.typ !== keyRotationStatementType) {
    return { type: "invalid", message: "The signature is not a rotation statement." };
  }
  // The header names the key that hands over; another kid would be a statement about another key.
  if (verified.protectedHeader.kid !== by.kid) {
    return {
      type: "invalid",
      message: `The rotation statement names kid ${String(verified.protectedHeader.kid)}, not ${by.kid}.`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(verified.payload));
  } catch {
    return { type: "invalid", message: "The rotation statement's claims are not JSON." };
  }
  const claims = KeyRotationClaimsSchema.safeParse(json);
  if (!claims.success) {
    return {
      type: "invalid",
      message: "The rotation statement's claims are not {next, nextKid, since}.",
    };
  }
  return { type: "valid", claims: claims.data };
}
