/**
 * Whether a wallet error means the person declined (EIP-1193 code 4001), anywhere in the
 * cause chain (wagmi and viem wrap the provider's error).
 * @example isUserRejection({ code: 4001 }) // true
 */
export function isUserRejection(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const e = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (e.code === 4001 || e.name === "UserRejectedRequestError") return true;
    current = e.cause;
  }
  return false;
}
