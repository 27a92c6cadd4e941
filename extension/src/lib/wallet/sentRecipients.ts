import { type Address, decodeFunctionData, erc20Abi, getAddress, type Hex, isAddress } from "viem";

type Call = { to?: unknown; data?: unknown; input?: unknown };

function recipientOfCall(call: Call | null | undefined): Address | null {
  if (!call || typeof call !== "object") return null;
  const data = typeof call.data === "string" ? call.data : call.input;
  const to = typeof call.to === "string" && isAddress(call.to, { strict: false }) ? call.to : null;
  // A plain value transfer: the recipient is `to`.
  if (data === undefined || data === null || data === "0x" || data === "") {
    return to ? getAddress(to) : null;
  }
  if (typeof data !== "string") return null;
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data: data as Hex });
    // A token transfer: the recipient is in the calldata, `to` is the token contract.
    if (decoded.functionName === "transfer") return getAddress(decoded.args[0]);
    if (decoded.functionName === "transferFrom") return getAddress(decoded.args[1]);
  } catch {
    // Any other contract call (a swap, a mint) names no recipient of funds.
  }
  return null;
}

/**
 * The addresses a wallet request sends funds to: `to` of a plain transfer, the recipient of an
 * ERC-20 transfer / transferFrom, for eth_sendTransaction and EIP-5792 wallet_sendCalls.
 * @example sentRecipientsOf("eth_sendTransaction", [{ to, value: "0x1" }]) // [to]
 */
export function sentRecipientsOf(method: string, params: unknown): Address[] {
  const list = Array.isArray(params) ? params : [];
  if (method === "eth_sendTransaction") {
    const recipient = recipientOfCall(list[0] as Call);
    return recipient ? [recipient] : [];
  }
  if (method === "wallet_sendCalls") {
    const calls = (list[0] as { calls?: unknown } | undefined)?.calls;
    if (!Array.isArray(calls)) return [];
    return calls.flatMap((call) => {
      const recipient = recipientOfCall(call as Call);
      return recipient ? [recipient] : [];
    });
  }
  return [];
}

type Eip1193Like = { request: (args: { method: string; params?: unknown }) => Promise<unknown> };

/**
 * Wraps a page wallet's `request` so sends the wallet accepted (it returned without throwing,
 * so the person approved) report their recipients. Best effort: a frozen provider stays as is.
 * @example observeSends(window.ethereum, (addresses) => report(addresses))
 */
export function observeSends(
  provider: unknown,
  onSent: (addresses: Address[]) => void,
  wrapped: WeakSet<object>,
): void {
  if (!provider || typeof provider !== "object" || wrapped.has(provider)) return;
  const target = provider as Eip1193Like;
  const original = target.request;
  if (typeof original !== "function") return;
  wrapped.add(provider);
  const request = async function (this: unknown, args: { method: string; params?: unknown }) {
    const result = await original.call(this ?? target, args);
    try {
      const recipients = sentRecipientsOf(args?.method, args?.params);
      if (recipients.length > 0) onSent(recipients);
    } catch {
      // Observing must never break the dApp's own request.
    }
    return result;
  };
  try {
    target.request = request;
  } catch {
    // A frozen or proxied provider refuses the assignment: its sends go unobserved.
  }
}
