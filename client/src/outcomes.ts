import type { RefusalCode } from "./PresendResult";

/** The client refused to pay, before anything was signed: nothing charged. */
export function refused(
  code: RefusalCode,
  message: string,
): { type: "refused"; code: RefusalCode; message: string; charged: false } {
  return { type: "refused", code, message, charged: false };
}

/** The answer proves nothing was charged (or nothing was sent). */
export function notCharged(code: string, status: number | null, message: string) {
  return { type: "not_charged" as const, code, status, message, charged: false as const };
}

/** The most of a thrown value's text a message carries: a reason, not a dump. */
const causeLength = 160;

/**
 * What a thrown value says, for a message: one line, bounded, with no URL. viem's errors carry
 * their request (the RPC URL, whose path often holds an API key, and the request body) and
 * "Docs:"/"Version:" lines in `message`; their `shortMessage` says what failed without them.
 * Any other error gives its first line. A URL left in either is replaced, so a configured
 * endpoint never reaches an answer or a terminal.
 */
export function describeCause(cause: unknown): string {
  const short =
    cause instanceof Error &&
    "shortMessage" in cause &&
    typeof cause.shortMessage === "string" &&
    cause.shortMessage !== ""
      ? cause.shortMessage
      : undefined;
  const text = short ?? (cause instanceof Error ? cause.message : String(cause));
  const line = (text.split(/\r?\n/).find((part) => part.trim() !== "") ?? "").trim();
  const safe = line.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi, "<url>");
  const bounded = safe.length > causeLength ? `${safe.slice(0, causeLength - 1)}…` : safe;
  return bounded === "" ? "no reason given" : bounded;
}
