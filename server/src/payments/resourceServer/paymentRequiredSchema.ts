import { z } from "@hono/zod-openapi";
import {
  AttestationBlockSchema,
  attestationExtensionKey,
} from "@presend/shared/attestation/attestationSchemas";
import { nativeUsdcDomain } from "@presend/shared/chains/chains";

// The JSON body of a 402 (documentation only: the packages build it, paymentEnvelope copies it).
// Shared schemas are re-created with .extend({}) before .openapi(): zod 4 copies prototype methods
// at construction, so a schema built before @hono/zod-openapi was imported lacks .openapi().

export const PaymentRequirementsEntrySchema = z
  .object({
    scheme: z.string().openapi({ example: "exact" }),
    network: z.string().openapi({ example: "eip155:8453" }),
    asset: z.string().openapi({ description: "Base USDC contract" }),
    amount: z
      .string()
      .openapi({ description: "Price in USDC base units (6 decimals)", example: "10000" }),
    payTo: z.string(),
    maxTimeoutSeconds: z.number().int().openapi({ example: 60 }),
    extra: z.record(z.string(), z.unknown()).openapi({
      description: "EIP-712 domain of the asset",
      example: nativeUsdcDomain,
    }),
    description: z.string(),
    mimeType: z.literal("application/json"),
    outputSchema: z.object({
      type: z.literal("http"),
      input: z.object({
        method: z.string(),
        bodyType: z.string(),
        body: z.record(z.string(), z.unknown()),
      }),
      output: z.object({ fields: z.array(z.string()) }),
    }),
  })
  .openapi("PaymentRequirements");

export const PaymentRequiredBodySchema = z
  .object({
    x402Version: z.literal(2),
    error: z.string().optional().openapi({
      description: "Why payment is required again: Payment required, or the verify/settle reason.",
    }),
    resource: z.object({ url: z.string(), description: z.string(), mimeType: z.string() }),
    accepts: z.array(PaymentRequirementsEntrySchema),
    // Every entry has the x402 v2 extension shape: its data under `info`, that data's JSON Schema
    // under `schema` (the official ones: bazaar, offer-receipt, sign-in-with-x, payment-identifier).
    extensions: z
      .object({
        [attestationExtensionKey]: extensionEntry(
          AttestationBlockSchema.extend({}).openapi("Attestation"),
        ).openapi({ description: "The payee attestation (the block under info)." }),
        // The official Sign-In-With-X entry names the chains a wallet may sign in with beside
        // its info, where the x402 v2 extension shape has nothing.
        "sign-in-with-x": extensionEntry(z.record(z.string(), z.unknown()))
          .extend({
            supportedChains: z.array(
              z.object({
                chainId: z.string().openapi({ example: "eip155:8453" }),
                type: z.string().openapi({ example: "eip191" }),
                signatureScheme: z.string().optional(),
              }),
            ),
          })
          .optional()
          .openapi({ description: "Sign-In-With-X: read a paid report again by signing in." }),
      })
      .catchall(extensionEntry(z.record(z.string(), z.unknown()))),
  })
  .openapi("PaymentRequired");

/** An x402 v2 extension entry: `info` and the JSON Schema that describes it. */
function extensionEntry<Info extends z.ZodType>(info: Info) {
  return z.object({
    info,
    schema: z.record(z.string(), z.unknown()).openapi({ description: "JSON Schema of info" }),
  });
}
