import type { JWSSigner } from "@x402/extensions/offer-receipt";
import { base64url, importJWK } from "jose";
import type { AttestationPrivateKey } from "./loadAttestationKey";

/**
 * The attestation key as the JWS signer the offer-receipt extension and the report signature
 * use: ES256, so one pinned key verifies everything presend signs. The kid is the attestation's
 * (the report signature) unless given (the offer-receipt extension names the key as a did:jwk).
 * @example const signer = await createAttestationSigner(key); await createJWS(payload, signer);
 */
export async function createAttestationSigner(
  key: AttestationPrivateKey,
  options: { kid?: string } = {},
): Promise<JWSSigner> {
  const privateKey = (await importJWK(key, "ES256")) as CryptoKey;
  return {
    kid: options.kid ?? key.kid,
    format: "jws",
    algorithm: "ES256",
    // WebCrypto's ECDSA output is r || s, exactly the JWS ES256 signature encoding.
    async sign(payload) {
      const signature = await crypto.subtle.sign(
        { name: "ECDSA", hash: "SHA-256" },
        privateKey,
        payload as Uint8Array<ArrayBuffer>,
      );
      return base64url.encode(new Uint8Array(signature));
    },
  };
}
