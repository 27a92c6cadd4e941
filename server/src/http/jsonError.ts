import type { ErrorBody, ErrorCode } from "@presend/shared/api/errors";
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The one way every route answers an error: `{ error: { code, message } }` with a stable code.
 * @example return jsonError(c, 400, "invalid_address", "Expected 0x followed by 40 hex characters.");
 */
export function jsonError(
  c: Context,
  status: ContentfulStatusCode,
  code: ErrorCode,
  message: string,
): Response {
  const body: ErrorBody = { error: { code, message } };
  return c.json(body, status);
}
