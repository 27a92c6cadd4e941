import { z } from "zod";
import { addressPattern } from "../address/addressPattern";

// The payee attestation: a compact ES256 JWS over the payTo, the per-route maximum prices, the
// network and the asset, published in the discovery document and in every 402 challenge.
// Server, CLI and extension all parse with these schemas.

/** Name of the 402 extension entry that carries the attestation block. */
export const attestationExtensionKey = "x-presend-attestation";

/** Public ES256 key (JWK). kid has the form presend-YYYY-MM. */
export const AttestationKeySchema = z.object({
  kty: z.literal("EC"),
  crv: z.literal("P-256"),
  alg: z.literal("ES256"),
  use: z.literal("sig"),
  x: z.string().min(1),
  y: z.string().min(1),
  kid: z.string().regex(/^presend-\d{4}-\d{2}$/),
});
export type AttestationKey = z.infer<typeof AttestationKeySchema>;

/** The signed claims: who is paid, and the most each paid route may ask. */
export const AttestationPayloadSchema = z.object({
  payTo: z.string().regex(addressPattern),
  /** Base units of USDC per route path, e.g. { "/check": "10000" }. */
  maxPrice: z.record(z.string(), z.string().regex(/^\d+$/)),
  /** CAIP-2 network of the payment (eip155:8453). Optional: attestations signed before it was bound lack it. */
  network: z
    .string()
    .regex(/^eip155:\d+$/)
    .optional(),
  /** The token paid in (Base USDC). Optional like network. */
  asset: z.string().regex(addressPattern).optional(),
  iat: z.number().int(),
  exp: z.number().int(),
});
export type AttestationPayload = z.infer<typeof AttestationPayloadSchema>;

/** The block as served: the JWS, the key that verifies it, and a note for humans. */
export const AttestationBlockSchema = z.object({
  jws: z.string().regex(/^[\w-]+\.[\w-]+\.[\w-]+$/),
  key: AttestationKeySchema,
  note: z.string(),
});
export type AttestationBlock = z.infer<typeof AttestationBlockSchema>;

/** JOSE typ of a rotation statement, so it cannot be confused with the attestation or a report. */
export const keyRotationStatementType = "presend-key-rotation+jws";

/**
 * What a retiring key signs when it hands over: the key taking over (its RFC 7638 SHA-256
 * thumbprint and kid) and the time it took over. A client that pinned the retiring key follows
 * this signature to the new key instead of trusting whatever key the server now shows.
 */
export const KeyRotationClaimsSchema = z
  .object({
    next: z.string().regex(/^[\w-]{43}$/, "next must be the RFC 7638 SHA-256 thumbprint"),
    nextKid: AttestationKeySchema.shape.kid,
    since: z.iso.datetime({ offset: true }),
  })
  .strict();
export type KeyRotationClaims = z.infer<typeof KeyRotationClaimsSchema>;

/** A key the server signed with before a rotation, and until when. */
export const PreviousAttestationKeySchema = z
  .object({
    /**
     * The public ES256 JWK (kid presend-YYYY-MM), as the discovery document carried it then;
     * strict, so a private part (d) in a published list is refused.
     */
    key: AttestationKeySchema.strict(),
    /** The last time it signed (ISO): reports paid until then carry signatures by it. */
    validUntil: z.iso.datetime({ offset: true }),
    /**
     * The rotation statement: a compact JWS by this key over the key that took over from it
     * (KeyRotationClaimsSchema). Without it, clients that pinned this key refuse the next one.
     */
    statement: z
      .string()
      .regex(/^[\w-]+\.[\w-]+\.[\w-]+$/)
      .optional(),
  })
  .strict();
export type PreviousAttestationKey = z.infer<typeof PreviousAttestationKeySchema>;
