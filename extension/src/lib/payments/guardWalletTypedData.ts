import { checkSignableTypedData, type SignableTypedData } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import type { Address } from "viem";

/**
 * Stops any signature request the person's wallet is not meant to see before it is shown: only
 * an exact payment (`TransferWithAuthorization`) and a channel deposit (`ReceiveWithAuthorization`
 * to the official deposit collector), of Base USDC on Base, from the paying account. The spend
 * cap is checked on those two alone, so a Permit2 transfer, a permit or anything else a tampered
 * offer could lead a scheme to ask for would otherwise reach the wallet uncapped.
 * @example guardWalletTypedData(typedData, payer); // throws PaymentError "unexpected_typed_data"
 */
export function guardWalletTypedData(typedData: SignableTypedData, payer: Address): void {
  const refusal = checkSignableTypedData(typedData, {
    allowed: ["TransferWithAuthorization", "ReceiveWithAuthorization"],
    from: payer,
  });
  if (refusal !== null) {
    throw new PaymentError(`${refusal} Nothing was signed.`, { code: "unexpected_typed_data" });
  }
}
