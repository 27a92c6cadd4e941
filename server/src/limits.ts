/**
 * The server's size and time limits that more than one module applies or states. Each is written
 * here once; the configuration's defaults, the body limits and the documents read them.
 * @example bodyLimit({ maxSize: limits.requestBodyBytes })
 */
export const limits = {
  /** Largest request body any route accepts (413 before any route or payment sees it). */
  requestBodyBytes: 4 * 1024,
  /** Largest answer read from an RPC endpoint or the facilitator's chain; larger ones are aborted. */
  upstreamAnswerBytes: 1_000_000,
  /** Largest history answer read (the stablecoin transfers around a check); larger: history unknown. */
  historyAnswerBytes: 4_000_000,
  /** Most Transfer events one history query may return; more: history unknown. */
  historyMaxTransfers: 5_000,
  /** How long one RPC endpoint may take before the next is tried (RPC_TIMEOUT_MS default). */
  rpcTimeoutMs: 4_000,
  /** How long chain facts are reused (CACHE_TTL_MS default). */
  factsCacheTtlMs: 15_000,
  /**
   * How long a remote facilitator may take to answer a verification (FACILITATOR_VERIFY_TIMEOUT_MS
   * default): past it the payment is refused with 503 `facilitator_unavailable`, nothing charged.
   */
  facilitatorVerifyMs: 10_000,
  /**
   * How long a remote facilitator may take to answer a settlement (FACILITATOR_SETTLE_TIMEOUT_MS
   * default): past it the chain decides the payment. Inside the drain, so a stopping replica
   * still answers the settlements it started.
   */
  facilitatorSettleMs: 20_000,
  /**
   * How old the last finding about the facilitator (from a paid request or a probe) may be before
   * a /readyz asks its /supported again.
   */
  facilitatorProbeMs: 15_000,
  /**
   * Largest address list file read (ADDRESS_LISTS_MAX_MB default, in MiB): about a million entries; a
   * larger file (a wrong file, a dump) is refused unread rather than filling the memory.
   */
  addressListMiB: 256,
  /** How long paid requests in flight may take to finish after SIGTERM (DRAIN_TIMEOUT_MS default). */
  drainTimeoutMs: 30_000,
} as const;
