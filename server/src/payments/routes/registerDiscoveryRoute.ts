import { createRoute, z } from "@hono/zod-openapi";
import {
  AttestationBlockSchema,
  type PreviousAttestationKey,
  PreviousAttestationKeySchema,
} from "@presend/shared/attestation/attestationSchemas";
import type { App } from "../../http/appEnv";
import type { Payments } from "../createPayments";
import { PaymentRequirementsEntrySchema } from "../resourceServer/paymentRequiredSchema";
import { buildDiscoveryDocument } from "./buildDiscoveryDocument";

const DiscoveryDocumentSchema = z
  .object({
    version: z.literal(1),
    resources: z.array(z.string()),
    items: z.array(
      z.object({
        resource: z.string(),
        type: z.literal("http"),
        x402Version: z.literal(2),
        accepts: z.array(PaymentRequirementsEntrySchema),
      }),
    ),
    lastUpdated: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    attestation: AttestationBlockSchema.extend({}).openapi("Attestation"),
    previousAttestationKeys: z.array(PreviousAttestationKeySchema),
  })
  .openapi("DiscoveryDocument");

const discoveryRoute = createRoute({
  method: "get",
  path: "/.well-known/x402",
  tags: ["meta"],
  summary: "x402 discovery document",
  description:
    "The paid resources with their payment requirements, service metadata and the signed payee attestation (pin its key; check payTo and price before paying), with the keys that signed before it and the rotation statements by which each handed over.",
  security: [],
  responses: {
    200: {
      description: "Discovery document.",
      content: { "application/json": { schema: DiscoveryDocumentSchema } },
    },
  },
});

/** Registers GET /.well-known/x402. */
export function registerDiscoveryRoute(
  app: App,
  deps: { payments: Payments; publicUrl: string; previousKeys?: PreviousAttestationKey[] },
): void {
  const lastUpdated = new Date();
  app.openapi(discoveryRoute, async (c) =>
    c.json(await buildDiscoveryDocument({ ...deps, lastUpdated }), 200),
  );
}
