import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { z } from "zod";

/** Where `npm start` serves the API. */
export const defaultServerUrl = "http://127.0.0.1:8402";

const ServerUrlSchema = z
  .url({
    protocol: /^https?$/,
    error: "PRESEND_URL must be the API's http(s) URL, like http://127.0.0.1:8402",
  })
  // Routes are appended to it (`${url}/check`): after a query or fragment they would not be
  // routes at all, and fetch refuses a URL with user:password@ at every request, which would
  // then read as an unreachable server, the credentials echoed in the message.
  .refine(
    (value) => {
      // Zod runs this on a value the URL check refused too; that refusal is the one to tell.
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return url.username === "" && url.password === "" && !/[?#]/.test(value);
    },
    {
      error:
        "PRESEND_URL must be the API's base URL without user:password@, query or fragment, like https://presend.example",
    },
  )
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
