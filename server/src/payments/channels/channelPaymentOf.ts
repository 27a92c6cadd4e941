import { addressPattern } from "@presend/shared/address/addressPattern";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { PaymentPayload } from "@x402/core/types";
import { isBatchSettlementDepositPayload, isBatchSettlementVoucherPayload } from "@x402/evm";
import type { Hex } from "viem";
import { z } from "zod";

/** A paid request over a batch-settlement channel: a deposit (which pays too) or a voucher. */
export type ChannelPayment = {
  type: "deposit" | "voucher";
  /** The channel's payer (the wallet that deposited), the payer of its payment records. */
  payer: string;
  channelId: Hex;
  /** The cumulative ceiling the voucher signs: everything charged so far plus this request. */
  cumulative: bigint;
};

const Uint256 = z.string().regex(/^\d{1,78}$/);

/**
 * The deposit presend offers: an EIP-3009 ReceiveWithAuthorization (its terms name no other
 * transfer method). The official facilitator takes these fields for granted and throws on one of
 * another type, which would read as a facilitator that did not answer instead of a refusal.
 */
const DepositSchema = z.object({
  amount: Uint256,
  authorization: z.object({
    erc3009Authorization: z.object({
      validAfter: Uint256,
      validBefore: Uint256,
      salt: z.string().regex(bytes32Pattern),
      signature: z.string(),
    }),
  }),
});

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
    channelConfig: { payer?: unknown } | null;
    voucher: Record<string, unknown>;
  };
  // The package's guards ask only that channelConfig be there: null passes them.
  const payer = channelConfig?.payer;
  const channelId = voucher.channelId;
  const ceiling = voucher.maxClaimableAmount;
  if (typeof payer !== "string" || !addressPattern.test(payer)) return null;
  if (typeof channelId !== "string" || !bytes32Pattern.test(channelId)) return null;
  if (typeof ceiling !== "string" || !/^\d{1,40}$/.test(ceiling)) return null;
  if (type === "deposit" && !DepositSchema.safeParse((raw as { deposit: unknown }).deposit).success)
    return null;
  return { type, payer, channelId: channelId as Hex, cumulative: BigInt(ceiling) };
}
