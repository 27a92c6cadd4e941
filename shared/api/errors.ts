import { z } from "zod";

/** Every error code the API answers with; clients may switch on these. */
export const errorCodes = [
  "missing_address",
  "invalid_address",
  "checksum_mismatch",
  "unknown_chain",
  "invalid_from",
  "from_equals_address",
  "invalid_json",
  "invalid_body",
  "unsupported_media_type",
  "body_too_large",
  "not_found",
  "method_not_allowed",
  "payment_required",
  "chain_unavailable",
  "receipt_not_found",
  "receipt_forbidden",
  "receipt_ambiguous",
  "internal_error",
  "authorization_in_flight",
  "authorization_used",
  "payment_id_conflict",
  "payment_id_in_flight",
  "settlement_unknown",
  "payment_network_unavailable",
  "payment_record_unavailable",
  "facilitator_unavailable",
  "rate_limited",
  "not_ready",
  "facilitator_unauthorized",
  "sign_in_unavailable",
  "signature_unverifiable",
  "malformed_request",
  "headers_too_large",
  "request_timeout",
  "expectation_failed",
] as const;

export const ErrorCodeSchema = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;

export const ErrorBodySchema = z.object({
  error: z.object({ code: ErrorCodeSchema, message: z.string() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
