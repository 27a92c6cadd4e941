import {
  type AttestationBlock,
  attestationExtensionKey,
} from "@presend/shared/attestation/attestationSchemas";
import type { ResourceServerExtension } from "@x402/core/types";
import type { Attestation } from "./createAttestation";

/** The attestation as an x402 extension entry: the block under `info`, as every extension does. */
export function attestationExtensionEntry(attestation: Attestation): { info: AttestationBlock } {
  return { info: attestation.current() };
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
