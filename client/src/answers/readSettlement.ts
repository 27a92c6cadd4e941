import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentRequirements } from "@x402/core/types";
import { type Address, type Hex, isHash } from "viem";
import type { Settlement } from "../PresendResult";

/**
 * The settlement an answer's PAYMENT-RESPONSE names (read by the official x402 helper) for the
 * requirement that was paid: null unless it says success with a transaction hash and a payer.
 * @example const settlement = readSettlement(answer, requirement);
 */
export function readSettlement(
  answer: Response,
  requirement: PaymentRequirements,
): Settlement | null {
  if (answer.headers.get("payment-response") === null) return null;
  try {
    const settled = new x402HTTPClient(new x402Client()).getPaymentSettleResponse((name) =>
      answer.headers.get(name),
    );
    if (!settled.success || !isHash(settled.transaction ?? "")) return null;
    if (!settled.payer) return null;
    return {
      transaction: settled.transaction as Hex,
      network: settled.network,
      payer: settled.payer as Address,
      amount: requirement.amount,
      payTo: requirement.payTo as Address,
    };
  } catch {
    return null;
  }
}
