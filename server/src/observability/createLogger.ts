import { type DestinationStream, type Logger, pino } from "pino";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

/**
 * Where log lines go: stdout (or `dest`), written in batches of 4 kB rather than one write
 * call per line (a request's line cost the hot routes more than the rest of their logging), and
 * flushed every 250 ms so a quiet server's lines still show at once; pino flushes what is left
 * when the process exits.
 * @example createLogger({ level: "info", name: "presend-api" }, logDestination("/dev/null"))
 */
export function logDestination(dest: string | number = 1): DestinationStream {
  return pino.destination({ dest, sync: false, minLength: 4096, periodicFlush: 250 });
}

/**
 * The process logger: one JSON object per line on stdout (pino), so a log shipper can index it.
 * @example const logger = createLogger({ level: "info", name: "presend-api" });
 */
export function createLogger(
  options: { level: LogLevel; name: string },
  destination: DestinationStream = logDestination(),
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
