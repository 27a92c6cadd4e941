import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { Hex } from "viem";
import type { PaymentChain, TransactionPayments } from "./createPaymentChain";

/**
 * A payment chain for unit tests that knows which authorizations were used and by which
 * transaction, and which the payer cancelled (the token's authorizationState is true for both),
 * and what the transactions it is told of did (any other is absent). Every read throws while `down`.
 * @example const chain = fakePaymentChain({ now: 1_900_000_000, used: new Map([[nonce, tx]]) });
 */
export function fakePaymentChain(state: {
  now: number;
  used: Map<string, Hex>;
  canceled?: Set<string>;
  transactions?: Map<string, TransactionPayments>;
  down?: boolean;
}): PaymentChain {
  const readable = async () => {
    if (state.down)
      throw new UpstreamError("payment chain down", { code: "payment_chain_unusable" });
  };
  return {
    reachable: async () => !state.down,
    async authorizationUsed(_payer, nonce) {
      await readable();
      return state.used.has(nonce) || (state.canceled?.has(nonce) ?? false);
    },
    async receiptStatus(hash) {
      await readable();
      return [...state.used.values()].includes(hash as Hex) ? "success" : null;
    },
    async findAuthorizationTx(_payer, nonce) {
      await readable();
      return state.used.get(nonce) ?? null;
    },
    async authorizationCanceled(_payer, nonce) {
      await readable();
      return state.canceled?.has(nonce) ?? false;
    },
    async paymentsIn(tx) {
      await readable();
      return state.transactions?.get(tx.toLowerCase()) ?? { type: "absent" };
    },
    async now() {
      await readable();
      return state.now;
    },
  };
}
