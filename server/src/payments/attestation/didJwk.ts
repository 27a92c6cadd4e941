import { base64url } from "jose";
import type { AttestationPrivateKey } from "./loadAttestationKey";

/**
 * The attestation key's public half as a `did:jwk` key id (`did:jwk:<base64url JWK>#0`): a kid
 * that carries its own key, so `@x402/extensions`' offer-receipt verify functions resolve it with
 * no key passed and no other host asked. Only the public members, in the RFC 7638 order.
 * @example createJWSOfferReceiptIssuer(didJwkKeyId(key), signer)
 */
export function didJwkKeyId(key: Pick<AttestationPrivateKey, "x" | "y">): string {
  const publicJwk = { alg: "ES256", crv: "P-256", kty: "EC", x: key.x, y: key.y };
  return `did:jwk:${base64url.encode(JSON.stringify(publicJwk))}#0`;
}
