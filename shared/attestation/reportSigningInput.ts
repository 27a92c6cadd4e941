import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { canonicalize } from "@x402/extensions/offer-receipt";
import { z } from "zod";
import { addressPattern } from "../address/addressPattern";

/** The settlement a signed report is bound to: the transfer that paid for it. */
export const SignedSettlementSchema = z.object({
  transaction: z.string().regex(bytes32Pattern),
  network: z.string().min(1),
  payer: z.string().regex(addressPattern),
});
export type SignedSettlement = z.infer<typeof SignedSettlementSchema>;

/** Name of the response header (and receipt field) that carries the report's detached JWS. */
export const reportSignatureHeader = "PRESEND-REPORT-SIGNATURE";

/** JOSE typ of the report signature, so it cannot be confused with the attestation or an offer. */
export const reportSignatureType = "presend-report+jws";

/**
 * The exact bytes presend signs for a paid report: the RFC 8785 canonical JSON of the report
 * (checkedAt included) and its settlement, with the transaction and payer in lowercase. Signer
 * and verifiers build it from the same parts, so the report's own key order never matters.
 * @example const bytes = reportSigningInput(report, { transaction, network, payer });
 */
export function reportSigningInput(report: unknown, settlement: SignedSettlement): Uint8Array {
  const bound = {
    report,
    settlement: {
      transaction: settlement.transaction.toLowerCase(),
      network: settlement.network,
      payer: settlement.payer.toLowerCase(),
    },
  };
  return new TextEncoder().encode(canonicalize(bound));
}
