import { shownRpcUrl } from "../http/shownRpcUrl";

/** What of an error one log line carries. */
export type LoggedError = { type: string; code?: string | number; message: string };

/** Long enough for a revert reason or a file path, short enough to stay one readable line. */
const maxMessageLength = 300;
/** A code worth indexing: an identifier (ECONNREFUSED, settlement_unknown), never free text. */
const codeShape = /^[\w.-]{1,64}$/;
/** Any URL a message quotes: a provider's key rides in its path, query or user info. */
const urlShape = /\b[a-z][a-z\d+.-]*:\/\/[^\s"'<>()[\]{}]+/gi;
/** Hex longer than a transaction hash: call data, a signed transaction, an encoded payment. */
const longHexShape = /0x[\da-f]{65,}/gi;

/**
 * An error as the server's JSON log carries it, on one line: its kind (`type`, the class name),
 * the first stable `code` of it or its causes (a PresendError's code, a JSON-RPC error's number,
 * a socket's ECONNREFUSED), and its short message (a PresendError's or viem error's
 * `shortMessage`, else the first line of its message). viem's whole message runs to twenty
 * lines with the RPC URL, the request body (call data) and the call's arguments, and
 * `String(error)` or pino's own error serializer (message and stack) would keep all of it: none
 * of that is kept here. What is kept is scrubbed all the same, since any library may quote them:
 * a URL becomes its origin (shownRpcUrl), hex longer than a transaction hash is cut to its first
 * bytes, and the message is capped.
 * @example logger.warn({ error: loggedError(error) }, "channel job failed");
 */
export function loggedError(error: unknown): LoggedError {
  const code = firstCode(error);
  return {
    type: error instanceof Error ? error.name : typeof error,
    ...(code !== undefined && { code }),
    message: scrubbed(shortMessageOf(error)),
  };
}

function shortMessageOf(error: unknown): string {
  if (typeof error === "object" && error !== null) {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown };
    if (typeof shortMessage === "string" && shortMessage !== "") return shortMessage;
    if (typeof message === "string") return message;
  }
  return String(error);
}

function scrubbed(message: string): string {
  const firstLine = message.split("\n", 1)[0] ?? "";
  const cleaned = firstLine
    .replace(urlShape, (url) => shownRpcUrl(url))
    .replace(longHexShape, (hex) => `${hex.slice(0, 10)}...`)
    // x402 joins a failure's reason and its (often empty) message with a dash.
    .replace(/[\s\u2014-]+$/, "")
    .trim();
  return cleaned.length > maxMessageLength ? `${cleaned.slice(0, maxMessageLength)}...` : cleaned;
}

function firstCode(error: unknown): string | number | undefined {
  let current = error;
  // A cause chain is short; the bound only guards against a cycle.
  for (let depth = 0; depth < 16 && typeof current === "object" && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === "number" && Number.isFinite(code)) return code;
    if (typeof code === "string" && codeShape.test(code)) return code;
    current = cause;
  }
  return undefined;
}
