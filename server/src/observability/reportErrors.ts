import type { Logger } from "pino";
import { loggedError } from "./loggedError";

/**
 * A failure handler (the `onError` of a store, a job, a middleware) that reports each failure as
 * one line of `logger`: `event` as its message, a stable name to search and alert on, and the
 * error as loggedError keeps it (kind, code, short message), never its many-line text.
 * @example createChannels({ ...options, onError: reportErrors(logger, "channel job failed") });
 */
export function reportErrors(
  logger: Logger,
  event: string,
  level: "warn" | "error" = "warn",
): (error: unknown) => void {
  // Under `error`, not `err`: pino's serializer of `err` would rename the kind and add a stack.
  return (error) => logger[level]({ error: loggedError(error) }, event);
}
