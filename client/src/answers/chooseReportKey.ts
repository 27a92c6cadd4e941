import type { AttestationKey } from "@presend/shared/attestation/attestationSchemas";
import { decodeProtectedHeader } from "jose";
import type { PinRecord } from "../PinStore";

// Clocks drift; a report made in the minute a key handed over is still that key's.
const handoverLeewayMs = 60_000;

export type ReportKeyChoice =
  | { type: "key"; jwk: AttestationKey }
  /** Signed by a key this pin never trusted (or trusted only before the report was made). */
  | { type: "unknown"; kid: string; message: string };

/**
 * The key a report's signature must verify with: the pinned key, or a key the pin replaced when
 * the report was made before that key handed over (`madeAt`, the report's checkedAt). A signature
 * whose kid cannot be read is left to the pinned key, whose check says why it fails.
 * @example const choice = chooseReportKey(pin, signature, report.checkedAt);
 */
export function chooseReportKey(
  pin: PinRecord,
  signature: string | null | undefined,
  madeAt: string | undefined,
): ReportKeyChoice {
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(signature ?? "").kid;
  } catch {
    return { type: "key", jwk: pin.jwk };
  }
  if (typeof kid !== "string" || kid === pin.jwk.kid) return { type: "key", jwk: pin.jwk };
  const made = Date.parse(madeAt ?? "");
  const replaced = (pin.previous ?? []).filter((entry) => entry.jwk.kid === kid);
  const valid = replaced.find(
    (entry) => !Number.isNaN(made) && made <= Date.parse(entry.until) + handoverLeewayMs,
  );
  if (valid !== undefined) return { type: "key", jwk: valid.jwk };
  return {
    type: "unknown",
    kid,
    message:
      replaced.length > 0
        ? `The report is signed by ${kid}, made ${madeAt ?? "at an unknown time"}, after that key handed over (${replaced.map((entry) => entry.until).join(", ")}): not trusted.`
        : `The report is signed by ${kid}, neither the pinned key ${pin.jwk.kid} nor one it replaced.`,
  };
}
