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

/** What a thrown value says, for a message. */
export function describeCause(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
