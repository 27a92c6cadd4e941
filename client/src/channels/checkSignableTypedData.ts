import { chains } from "@presend/shared/chains/chains";
import { authorizationTypes, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { z } from "zod";

/**
 * The wallet signatures presend asks for: an exact payment (`TransferWithAuthorization` to the
 * payee) and a channel deposit (`ReceiveWithAuthorization` to the deposit collector).
 */
export type SignableKind = "TransferWithAuthorization" | "ReceiveWithAuthorization";

export type SignableTypedData = {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
};

/** EIP-3009's authorization fields, the same for both kinds. */
const authorizationFields = authorizationTypes.TransferWithAuthorization;

const sameAddress = (expected: string) =>
  z.string().refine((value) => value.toLowerCase() === expected.toLowerCase());

/** Base USDC's EIP-712 domain: a signature under any other domain moves something else. */
const UsdcOnBaseDomainSchema = z.object({
  chainId: z.union([z.literal(chains.base.id), z.literal(BigInt(chains.base.id))]),
  verifyingContract: sameAddress(chains.base.usdc.address),
});

const FieldsSchema = z
  .array(z.object({ name: z.string(), type: z.string() }).strict())
  .refine(
    (fields) =>
      fields.length === authorizationFields.length &&
      fields.every(
        (field, i) =>
          field.name === authorizationFields[i]?.name &&
          field.type === authorizationFields[i]?.type,
      ),
  );

const typesFor = <K extends SignableKind>(kind: K) =>
  z
    .object({ [kind]: FieldsSchema } as Record<K, typeof FieldsSchema>)
    .catchall(z.unknown())
    // Only the primary type and the domain's own description: no struct rides along unseen.
    .refine((types) => Object.keys(types).every((key) => key === kind || key === "EIP712Domain"));

/**
 * Refuses (with the reason) any EIP-712 request the paying wallet is not meant to sign: only an
 * EIP-3009 authorization of Base USDC on Base, from the paying account, of the kinds `allowed`,
 * and a deposit only to the official ERC-3009 deposit collector. A Permit2 transfer, an EIP-2612
 * permit or an approval a tampered offer could lead a payment scheme to ask for is refused here,
 * before the wallet sees it; null when the request may be signed.
 * @example const refusal = checkSignableTypedData(typedData, { allowed: ["ReceiveWithAuthorization"], from });
 */
export function checkSignableTypedData(
  typedData: SignableTypedData,
  expected: { allowed: readonly SignableKind[]; from: string },
): string | null {
  const kind = expected.allowed.find((allowed) => allowed === typedData.primaryType);
  if (kind === undefined) {
    return `The wallet was asked to sign ${typedData.primaryType}; presend asks only for ${expected.allowed.join(" or ")}.`;
  }
  if (!UsdcOnBaseDomainSchema.safeParse(typedData.domain).success) {
    return `The wallet was asked to sign ${kind} outside Base USDC's domain (chain ${String(typedData.domain.chainId)}, contract ${String(typedData.domain.verifyingContract)}).`;
  }
  if (!typesFor(kind).safeParse(typedData.types).success) {
    return `The wallet was asked to sign ${kind} with other fields than EIP-3009's.`;
  }
  const message = z
    .object({
      from: sameAddress(expected.from),
      to:
        kind === "ReceiveWithAuthorization"
          ? sameAddress(ERC3009_DEPOSIT_COLLECTOR_ADDRESS)
          : z.string(),
    })
    .safeParse(typedData.message);
  if (!message.success) {
    return kind === "ReceiveWithAuthorization"
      ? `The wallet was asked for a deposit from ${String(typedData.message.from)} to ${String(typedData.message.to)}, not from the paying account to the channel's deposit collector (${ERC3009_DEPOSIT_COLLECTOR_ADDRESS}).`
      : `The wallet was asked for a payment from ${String(typedData.message.from)}, not from the paying account.`;
  }
  return null;
}
