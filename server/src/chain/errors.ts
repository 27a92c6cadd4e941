import { UpstreamError } from "@presend/shared/errors/UpstreamError";

// Why one RPC endpoint could not serve a facts batch. The reader catches these, tries the next
// endpoint, and folds the short messages into ChainFacts.error; they never leave read().

export type ChainReadErrorCode =
  | "rpc_http_error"
  | "rpc_timeout"
  | "rpc_network_error"
  | "rpc_malformed_response"
  | "rpc_method_error"
  | "rpc_block_not_reached"
  | "rpc_wrong_chain"
  | "rpc_response_too_large";

/** The short message is a reason a person can act on, without the endpoint URL (it may carry an API key). */
export class ChainReadError extends UpstreamError<ChainReadErrorCode> {
  override name = "ChainReadError";

  constructor(code: ChainReadErrorCode, shortMessage: string, options?: { cause?: unknown }) {
    super(shortMessage, { ...options, code });
  }
}

/** The endpoint answered with a non-2xx HTTP status. */
export class RpcHttpError extends ChainReadError {
  override name = "RpcHttpError";
  constructor(readonly status: number) {
    super("rpc_http_error", `HTTP ${status}`);
  }
}

/** No answer within the per-endpoint timeout. */
export class RpcTimeoutError extends ChainReadError {
  override name = "RpcTimeoutError";
  constructor(timeoutMs: number) {
    super("rpc_timeout", `timeout after ${timeoutMs} ms`);
  }
}

/** The request never got an HTTP answer (refused, DNS, reset). */
export class RpcNetworkError extends ChainReadError {
  override name = "RpcNetworkError";
  constructor(cause: unknown) {
    const code = errorCode(cause);
    super("rpc_network_error", `network error${code ? ` (${code})` : ""}`, { cause });
  }
}

// Only the system error code (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET...) goes into the message:
// fetch's own messages can quote the whole URL, and URLs of paid RPCs carry API keys.
function errorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 3 || typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && /^[A-Z][A-Z0-9_]*$/.test(code)) return code;
  return errorCode((error as { cause?: unknown }).cause, depth + 1);
}

/** The body is not the JSON-RPC batch answer we asked for. */
export class RpcMalformedResponseError extends ChainReadError {
  override name = "RpcMalformedResponseError";
  constructor(detail: string, options?: { cause?: unknown }) {
    super("rpc_malformed_response", `malformed response: ${detail}`, options);
  }
}

/** One entry of the batch carries a JSON-RPC error object. */
export class RpcMethodError extends ChainReadError {
  override name = "RpcMethodError";
  constructor(
    readonly method: string,
    code: number,
    message: string,
  ) {
    super("rpc_method_error", `${method} failed: ${code} ${message.slice(0, 120)}`);
  }
}

/**
 * Words nodes use for a block they do not have yet (geth, Erigon, Reth, Nethermind, anvil): the
 * node answering is behind the block asked for, which is no refusal of the query itself.
 */
export const blockNotReached =
  /header not found|unknown block|block not found|beyond (the )?current head|BlockOutOfRange|greater than (the )?(current )?head|not (yet )?(been )?reached/i;

/**
 * An entry of a batch pinned to one block was answered by a node that has not reached it (behind
 * the others of its load balancer, or the chain reorganised to a shorter branch).
 */
export class RpcBlockNotReachedError extends ChainReadError {
  override name = "RpcBlockNotReachedError";
  constructor(
    readonly method: string,
    readonly block: bigint,
  ) {
    super("rpc_block_not_reached", `${method}: the node answering had not reached block ${block}`);
  }
}

/** The endpoint serves a different chain than the one it is configured for. */
export class RpcWrongChainError extends ChainReadError {
  override name = "RpcWrongChainError";
  constructor(expected: number, actual: number) {
    super("rpc_wrong_chain", `wrong chain: expected id ${expected}, endpoint reports ${actual}`);
  }
}

/** The answer is larger than the reader accepts (it stops reading it). */
export class RpcResponseTooLargeError extends ChainReadError {
  override name = "RpcResponseTooLargeError";
  constructor(maxBytes: number) {
    super("rpc_response_too_large", `response larger than ${maxBytes} bytes, aborted`);
  }
}
