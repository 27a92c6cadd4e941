import {
  type AttestationBlock,
  AttestationBlockSchema,
  attestationExtensionKey,
} from "@presend/shared/attestation/attestationSchemas";
import type { ResourceServerExtension } from "@x402/core/types";
import { z } from "zod";
import { truncateJsonSchema } from "../truncateJsonSchema";
import type { Attestation } from "./createAttestation";

/** JSON Schema of the block (its fields), from the zod schema clients parse it with. */
const attestationInfoSchema = truncateJsonSchema(z.toJSONSchema(AttestationBlockSchema), 1);

/**
 * The attestation as an x402 v2 extension entry: the block under `info` and its JSON Schema under
 * `schema`, the shape every official extension has.
 */
export function attestationExtensionEntry(attestation: Attestation): {
  info: AttestationBlock;
  schema: Record<string, unknown>;
} {
  return { info: attestation.current(), schema: attestationInfoSchema };
}

/**
 * The x402 resource-server extension that puts the payee attestation into every 402 under
 * extensions["x-presend-attestation"].info. The jws is declared dynamic: it is re-signed at
 * start and periodically, so a client echoing an older one must not fail the echo check.
 * @example resourceServer.registerExtension(attestationExtension(attestation));
 */
export function attestationExtension(attestation: Attestation): ResourceServerExtension {
  return {
    key: attestationExtensionKey,
    dynamicInfoFields: ["jws"],
    enrichDeclaration: () => attestationExtensionEntry(attestation),
  };
}
