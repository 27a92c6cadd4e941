export type PresendErrorOptions = {
  /** The error this one wraps; kept as `cause` and reachable through `walk`. */
  cause?: unknown;
  /** More about what went wrong, for logs; appended to `message` after the short message. */
  details?: string;
  /** Lines that help the reader act (what to set, where to look), printed between the two. */
  metaMessages?: string[];
};

/**
 * The root of every error presend throws on purpose. In the manner of viem's `BaseError`: a stable
 * `code` to switch on (never the message), a `shortMessage` a person can read, optional `details`
 * and `metaMessages`, the `cause` it wraps, and `walk` to find a cause of a given kind.
 *
 * Unlike viem, `details` is never copied from the cause: causes here can be fetch errors that quote
 * an RPC URL with its API key, and a message must be safe to log or show.
 * @example
 * try { loadConfig(env) } catch (error) {
 *   if (error instanceof ConfigurationError) console.error(error.shortMessage);
 * }
 */
export class PresendError<Code extends string = string> extends Error {
  override name = "PresendError";
  readonly code: Code;
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly metaMessages: readonly string[] | undefined;

  constructor(code: Code, shortMessage: string, options: PresendErrorOptions = {}) {
    super(
      composeMessage(shortMessage, options),
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.code = code;
    this.shortMessage = shortMessage;
    this.details = options.details;
    this.metaMessages = options.metaMessages;
  }

  /** The innermost cause (this error when it wraps nothing). */
  walk(): unknown;
  /** The first error of the cause chain, this one included, that `match` accepts; else null. */
  walk(match: (error: unknown) => boolean): unknown;
  walk(match?: (error: unknown) => boolean): unknown {
    return walkCauses(this, match);
  }
}

/**
 * `walk` for any thrown value, PresendError or not: follows `cause` from `error` inward.
 * @example const chainError = walkCauses(error, (e) => e instanceof ChainReadError);
 */
export function walkCauses(error: unknown, match?: (error: unknown) => boolean): unknown {
  let current = error;
  // A cause chain is short; the bound only guards against a cycle someone built by hand.
  for (let depth = 0; depth < 32; depth++) {
    if (match?.(current)) return current;
    const cause =
      typeof current === "object" && current !== null
        ? (current as { cause?: unknown }).cause
        : undefined;
    if (cause === undefined) return match ? null : current;
    current = cause;
  }
  return match ? null : current;
}

function composeMessage(shortMessage: string, options: PresendErrorOptions): string {
  const extra = [
    ...(options.metaMessages ?? []),
    ...(options.details ? [`Details: ${options.details}`] : []),
  ];
  return extra.length === 0 ? shortMessage : [shortMessage, "", ...extra].join("\n");
}
