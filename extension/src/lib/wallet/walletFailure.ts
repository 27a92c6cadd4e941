import type { MessageFailure } from "../messaging/protocol";

/** What the wallet's own error (EIP-1193 / JSON-RPC) says, as the bridge reports it. */
export type WalletFailure = MessageFailure & {
  code: "wallet_unauthorized" | "wallet_unsupported" | "wallet_busy" | "wallet_error";
};

/**
 * The wallet's own error, told apart by its EIP-1193 / JSON-RPC code and carrying the wallet's
 * own words (a hardware wallet's reason, say), which wagmi and viem keep deeper in the cause
 * chain than their generic first line ("An internal error was received."). Null when the error
 * carries no code of the wallet's.
 * @example walletFailure({ code: -32603, message: "Ledger device: UNKNOWN_ERROR (0x6a80)" })
 */
export function walletFailure(error: unknown): WalletFailure | null {
  for (let current = error, depth = 0; current && depth < 8; depth++) {
    const e = current as { code?: unknown; details?: unknown; message?: unknown; cause?: unknown };
    if (typeof e.code === "number" && Number.isInteger(e.code)) {
      // viem keeps the provider's message as `details`; a provider's own error has it as message.
      const said = typeof e.details === "string" && e.details ? e.details : e.message;
      return { code: kindOf(e.code), message: readable(said) };
    }
    current = e.cause;
  }
  return null;
}

function kindOf(code: number): WalletFailure["code"] {
  if (code === 4100) return "wallet_unauthorized";
  // The wallet does not have the method (EIP-1193 4200, JSON-RPC -32601).
  if (code === 4200 || code === -32601) return "wallet_unsupported";
  // Another request of this site is already open in the wallet (MetaMask's -32002).
  if (code === -32002) return "wallet_busy";
  return "wallet_error";
}

/** The wallet's words as one short printable line: they are shown in presend's card. */
function readable(said: unknown): string {
  const line = typeof said === "string" ? (said.split("\n")[0] ?? "") : "";
  const printable = line.replace(/[^\x20-\x7e]/g, "").trim();
  return printable.length > 160 ? `${printable.slice(0, 159)}…` : printable;
}
