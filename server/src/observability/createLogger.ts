import { type DestinationStream, type Logger, pino } from "pino";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/**
 * The process logger: one JSON object per line on stdout (pino), so a log shipper can index it.
 * @example const logger = createLogger({ level: "info", name: "presend-api" });
 */
export function createLogger(
  options: { level: LogLevel; name: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      name: options.name,
      level: options.level,
      // Never log what a request may carry that is not ours to keep.
      redact: ["req.headers.authorization", 'req.headers["payment-signature"]'],
    },
    destination,
  );
}
