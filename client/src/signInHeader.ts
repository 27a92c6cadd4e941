import type { PaymentRequired } from "@x402/core/types";
import {
  type CompleteSIWxInfo,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import type { Address, Hex } from "viem";

/** The request header a signed-in request carries. */
export const signInHeaderName = SIGN_IN_WITH_X;

/**
 * Signs the Sign-In-With-X challenge a 402 offers for `network` (EIP-191 by the paying wallet,
 * with the official package) and returns the header value; null when the 402 offers none for it.
 * The package checks the challenge is bound to the origin of `resourceUrl` before signing.
 * @example const header = await signInHeader(paymentRequired, "eip155:8453", signer, url);
 */
export async function signInHeader(
  paymentRequired: PaymentRequired,
  network: string,
  signer: { address: Address; signMessage(args: { message: string }): Promise<Hex> },
  resourceUrl: string,
): Promise<string | null> {
  const extension = paymentRequired.extensions?.[SIGN_IN_WITH_X] as SIWxExtension | undefined;
  const chain = extension?.supportedChains?.find(
    (supported) => supported.chainId === network && supported.type === "eip191",
  );
  if (extension?.info === undefined || chain === undefined) return null;
  const info: CompleteSIWxInfo = { ...extension.info, chainId: chain.chainId, type: chain.type };
  const payload = await createSIWxPayload(info, signer, resourceUrl);
  return encodeSIWxHeader(payload);
}
