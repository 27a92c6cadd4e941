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
