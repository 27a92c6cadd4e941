import {
  reportSignatureType,
  reportSigningInput,
  type SignedSettlement,
} from "@presend/shared/attestation/reportSigningInput";
import type { JWSSigner } from "@x402/extensions/offer-receipt";
import { base64url } from "jose";

/** Signs a paid report with its settlement; see reportSigningInput for the bytes. */
export type ReportSigner = (report: unknown, settlement: SignedSettlement) => Promise<string>;

/**
 * A detached compact JWS (RFC 7515 appendix F: header..signature) over the canonical report and
 * its settlement, signed with the attestation key. Detached, because the payload is the report
 * the caller already holds; the signature is a short header beside it.
 * @example const signature = await createReportSigner(signer)(report, settlement);
 */
export function createReportSigner(signer: JWSSigner): ReportSigner {
  return async (report, settlement) => {
    const header = base64url.encode(
      JSON.stringify({ alg: signer.algorithm, kid: signer.kid, typ: reportSignatureType }),
    );
    const payload = base64url.encode(reportSigningInput(report, settlement));
    const signature = await signer.sign(new TextEncoder().encode(`${header}.${payload}`));
    return `${header}..${signature}`;
  };
}
