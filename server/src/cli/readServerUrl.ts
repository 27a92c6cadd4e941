import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { z } from "zod";

/** Where `npm start` serves the API. */
export const defaultServerUrl = "http://127.0.0.1:8402";

const ServerUrlSchema = z
  .url({
    protocol: /^https?$/,
    error: "PRESEND_URL must be the API's http(s) URL, like http://127.0.0.1:8402",
  })
  .default(defaultServerUrl);

/**
 * PRESEND_URL, the API the CLI and the MCP server talk to, without trailing slashes (the default
 * when unset or empty). Throws ConfigurationError naming the setting when it is not an http(s)
 * URL, so a typo is a usage error before any request, not a crash.
 * @example const server = readServerUrl(process.env); // "http://127.0.0.1:8402"
 */
export function readServerUrl(env: Record<string, string | undefined>): string {
  const parsed = ServerUrlSchema.safeParse(env.PRESEND_URL || undefined);
  if (!parsed.success) {
    throw new ConfigurationError(parsed.error.issues.map((issue) => issue.message).join("; "));
  }
  return parsed.data.replace(/\/+$/, "");
}
