import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { type FallbackTransport, fallback, type HttpTransport } from "viem";
import { type KeyHiddenHttpOptions, keyHiddenHttpTransport } from "./keyHiddenHttpTransport";

/**
 * viem's fallback transport over every RPC URL in the order given, each one a
 * keyHiddenHttpTransport (answers capped at 1 MB, a provider's key kept out of errors, each call
 * bounded by `timeoutMs`). A call the first URL does not answer (down, hung past its timeout,
 * rate-limited, garbage) is asked of the next at once; an answer, a revert included, ends the
 * call where it came from. A failed call is retried `retryCount` times over the whole list, not
 * at each URL: a rate-limited first provider (Retry-After) does not hold every call back while the
 * next one answers, and a caller's worst case stays (retryCount + 1) times the sum of its URLs'
 * timeouts. The Base RPC of the payment side (its bookkeeping reads, the in-process facilitator,
 * `presend facilitator`).
 * @example createPublicClient({ transport: keyHiddenFallbackTransport(rpcUrls, { timeoutMs: 3_000, retryCount: 0 }) })
 */
export function keyHiddenFallbackTransport(
  rpcUrls: readonly string[],
  options: KeyHiddenHttpOptions,
): FallbackTransport<readonly HttpTransport[]> {
  if (rpcUrls.length === 0) throw new ConfigurationError("no RPC URL given for the payment chain");
  return fallback(
    rpcUrls.map((rpcUrl) => keyHiddenHttpTransport(rpcUrl, { ...options, retryCount: 0 })),
    { retryCount: options.retryCount },
  );
}
