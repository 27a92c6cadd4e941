import type { ClientEvent } from "@presend/client";
import type { Address } from "viem";
import type { Progress } from "../messaging/protocol";

export type PaymentProgress = {
  /** The presend client's events: the attested terms kept, "paying" shown as it happens. */
  onEvent(event: ClientEvent): void;
  /** The wallet is about to be asked: shows the attested terms, a deposit as one. */
  askingWallet(
    typedData: { primaryType: string; message: Record<string, unknown> },
    sender: Address | undefined,
  ): void;
  /** The check's attested price, once the offer was verified (null before). */
  price(): bigint | null;
};

/**
 * What the card and popup show while one check pays: the terms the attestation vouched for,
 * kept from the client's "verified" event and shown when the wallet is asked (a voucher asks
 * nobody, so they show only for an exact payment or a deposit, with its amount).
 * @example const progress = createPaymentProgress(deps.progress);
 */
export function createPaymentProgress(progress: (step: Progress) => void): PaymentProgress {
  let terms: Extract<ClientEvent, { type: "verified" }> | null = null;
  return {
    onEvent(event) {
      if (event.type === "verified") terms = event;
      if (event.type === "paying") {
        progress({ step: "paying" });
        progress({ step: "checking" });
      }
    },
    askingWallet(typedData, sender) {
      if (terms === null) return;
      // A channel deposit (to the scheme's deposit collector) is shown as one, with its amount.
      const isDeposit = typedData.primaryType === "ReceiveWithAuthorization";
      progress({
        step: "waiting-wallet",
        ...(sender !== undefined && { from: sender }),
        amount: terms.amount,
        payTo: terms.payTo,
        keyFingerprint: terms.fingerprint,
        keyPinnedNow: terms.pinnedNow,
        ...(isDeposit && { deposit: String(typedData.message.value) }),
      });
    },
    price: () => (terms === null ? null : BigInt(terms.amount)),
  };
}
