import { addressPattern } from "@presend/shared/address/addressPattern";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { PaymentPayload } from "@x402/core/types";
import { isBatchSettlementDepositPayload, isBatchSettlementVoucherPayload } from "@x402/evm";
import type { Hex } from "viem";

/** A paid request over a batch-settlement channel: a deposit (which pays too) or a voucher. */
export type ChannelPayment = {
  type: "deposit" | "voucher";
  /** The channel's payer (the wallet that deposited), the payer of its payment records. */
  payer: string;
  channelId: Hex;
  /** The cumulative ceiling the voucher signs: everything charged so far plus this request. */
  cumulative: bigint;
};

/**
 * The channel payment a payload carries (recognised by `@x402/evm`'s own type guards, its fields
 * checked for shape), or null when it carries none.
 * @example const payment = channelPaymentOf(payload);
 */
export function channelPaymentOf(payload: Pick<PaymentPayload, "payload">): ChannelPayment | null {
  const raw: unknown = payload.payload;
  const type = isBatchSettlementVoucherPayload(raw)
    ? "voucher"
    : isBatchSettlementDepositPayload(raw)
      ? "deposit"
      : null;
  if (type === null) return null;
  const { channelConfig, voucher } = raw as {
    channelConfig: { payer: unknown };
    voucher: Record<string, unknown>;
  };
  const payer = channelConfig.payer;
  const channelId = voucher.channelId;
  const ceiling = voucher.maxClaimableAmount;
  if (typeof payer !== "string" || !addressPattern.test(payer)) return null;
  if (typeof channelId !== "string" || !bytes32Pattern.test(channelId)) return null;
  if (typeof ceiling !== "string" || !/^\d{1,40}$/.test(ceiling)) return null;
  return { type, payer, channelId: channelId as Hex, cumulative: BigInt(ceiling) };
}
