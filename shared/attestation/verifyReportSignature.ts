import { base64url, compactVerify, importJWK } from "jose";
import type { AttestationKey } from "./attestationSchemas";
import {
  reportSignatureType,
  reportSigningInput,
  type SignedSettlement,
} from "./reportSigningInput";

export type ReportSignatureCheck = {
  /** The detached compact JWS (header..signature) sent with the report. */
  signature: string | null | undefined;
  /** The report exactly as parsed from the response body. */
  report: unknown;
  settlement: SignedSettlement;
  /** The attestation key pinned for this server. */
  key: AttestationKey;
};

export type ReportSignatureResult =
  | { type: "verified"; kid: string }
  | {
      type: "forged";
      reason: "missing" | "malformed" | "bad_signature" | "wrong_key";
      message: string;
    };

/**
 * Verifies the detached ES256 JWS over a paid report and its settlement with the pinned
 * attestation key: anyone holding that key can later prove what presend said, and when.
 * @example const r = await verifyReportSignature({ signature, report, settlement, key });
 */
export async function verifyReportSignature(
  check: ReportSignatureCheck,
): Promise<ReportSignatureResult> {
  const parts = check.signature?.split(".") ?? [];
  if (check.signature === null || check.signature === undefined || check.signature === "") {
    return { type: "forged", reason: "missing", message: "The report carries no signature." };
  }
  const [protectedHeader, detached, signature] = parts;
  if (parts.length !== 3 || detached !== "" || !protectedHeader || !signature) {
    return {
      type: "forged",
      reason: "malformed",
      message: "The report signature is not a detached compact JWS.",
    };
  }
  const payload = base64url.encode(reportSigningInput(check.report, check.settlement));
  try {
    const key = await importJWK(check.key, "ES256");
    const verified = await compactVerify(`${protectedHeader}.${payload}.${signature}`, key, {
      algorithms: ["ES256"],
    });
    if (verified.protectedHeader.kid !== check.key.kid) {
      return {
        type: "forged",
        reason: "wrong_key",
        message: `The report is signed for kid ${String(verified.protectedHeader.kid)}, not the pinned ${check.key.kid}.`,
      };
    }
    if (verified.protectedHeader.typ !== reportSignatureType) {
      return {
        type: "forged",
        reason: "malformed",
        message: "The signature is not a report signature.",
      };
    }
    return { type: "verified", kid: check.key.kid };
  } catch {
    return {
      type: "forged",
      reason: "bad_signature",
      message:
        "The report's signature does not verify with the pinned attestation key: the report or its settlement was altered, or it was not signed by this server.",
    };
  }
}
