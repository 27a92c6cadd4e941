import { addressPattern } from "@presend/shared/address/addressPattern";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { PaymentPayload } from "@x402/core/types";
import { z } from "zod";

const Uint = z.union([z.string().regex(/^\d+$/), z.number().int().nonnegative()]);

/** The EIP-3009 authorization inside an exact-EVM payment payload. */
const AuthorizationSchema = z.object({
  from: z.string().regex(addressPattern),
  to: z.string().regex(addressPattern),
  value: Uint,
  validAfter: Uint,
  validBefore: Uint,
  nonce: z.string().regex(bytes32Pattern),
});

export type PaidAuthorization = {
  payer: string;
  nonce: string;
  payTo: string;
  value: bigint;
  validAfter: bigint;
  validBefore: bigint;
};

/**
 * The EIP-3009 authorization a payment carries, or null when it carries none in that shape
 * (the facilitator then refuses it).
 * @example const authorization = authorizationOf(payload);
 */
export function authorizationOf(
  payload: Pick<PaymentPayload, "payload">,
): PaidAuthorization | null {
  const parsed = AuthorizationSchema.safeParse(
    (payload.payload as { authorization?: unknown } | undefined)?.authorization,
  );
  if (!parsed.success) return null;
  const a = parsed.data;
  return {
    payer: a.from,
    nonce: a.nonce,
    payTo: a.to,
    value: BigInt(a.value),
    validAfter: BigInt(a.validAfter),
    validBefore: BigInt(a.validBefore),
  };
}
