import { ErrorBodySchema } from "@presend/shared/api/errors";

/**
 * The JSON error contract's code and message of an answer, or its HTTP status when the body is
 * not one (a proxy's page). Reads a clone: the answer stays readable.
 * @example const { code, message } = await errorOf(answer);
 */
export async function errorOf(response: Response): Promise<{ code: string; message: string }> {
  const body = ErrorBodySchema.safeParse(
    await response
      .clone()
      .json()
      .catch(() => null),
  );
  return body.success
    ? body.data.error
    : { code: `http_${response.status}`, message: `HTTP ${response.status}` };
}

/** The JSON error contract's code of an error answer (4xx, 5xx), if it has one. */
export async function errorCode(answer: Response): Promise<string | null> {
  if (answer.status < 400) return null;
  const body = ErrorBodySchema.safeParse(
    await answer
      .clone()
      .json()
      .catch(() => null),
  );
  return body.success ? body.data.error.code : null;
}

/** A redirect, followed or not (fetch with redirect "manual" answers an opaque one). */
export function isRedirect(response: Response): boolean {
  return response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400);
}
