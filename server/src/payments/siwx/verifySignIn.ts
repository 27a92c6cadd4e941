import {
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  validateSIWxMessage,
  verifySIWxSignature,
} from "@x402/extensions/sign-in-with-x";
import type { PayerMessageVerifier } from "../facilitator/createPayerMessageVerifier";
import { SignatureUnverifiable } from "../facilitator/SignatureUnverifiable";
import type { SignInState } from "./createSignInState";
import { SignInUnavailable } from "./SignInUnavailable";

/** The request header a signed-in client sends (base64 JSON, x402 v2). */
export const signInHeader = SIGN_IN_WITH_X;

/** How long after its issuedAt a sign-in message is taken (the official validator's default). */
export const signInMaxAgeMs = 5 * 60 * 1000;

/**
 * A verified sign-in: the wallet, the nonce to spend once the sign-in is used, and when the
 * message stops being valid (ms since epoch): how long its nonce must be remembered.
 */
export type SignedIn = { payer: string; nonce: string; expiresAt: number };

/**
 * Checks a SIGN-IN-WITH-X header with the official functions: the message is bound to presend's
 * public origin, fresh (issued within 5 minutes, not expired), its nonce not used before, and
 * signed by the wallet it names (EIP-191; a smart account's signature through ERC-1271 or
 * ERC-6492 on the payment chain, `verifyMessage`). null when any of it fails; rejects with
 * SignInUnavailable when the nonce store cannot say whether the nonce was used, and with
 * SignatureUnverifiable when the payment chain cannot be read to check a signature that is not
 * the wallet's plain ECDSA one (whether it signed is unknown, never taken as a no).
 * @example const signedIn = await verifySignIn(c.req.header(signInHeader), { origin, state });
 */
export async function verifySignIn(
  header: string | undefined,
  options: { origin: string; state: SignInState; verifyMessage: PayerMessageVerifier },
): Promise<SignedIn | null> {
  if (header === undefined || header === "") return null;
  let storeError: unknown;
  let unverifiable: SignatureUnverifiable | undefined;
  try {
    const payload = parseSIWxHeader(header);
    const validation = await validateSIWxMessage(payload, new URL(options.origin), {
      maxAge: signInMaxAgeMs,
      checkNonce: async (nonce) => {
        try {
          return !(await options.state.nonceUsed(nonce));
        } catch (error) {
          storeError = error;
          return false;
        }
      },
    });
    if (storeError !== undefined) throw new SignInUnavailable({ cause: storeError });
    if (!validation.isValid) return null;
    const verification = await verifySIWxSignature(payload, {
      // The official check takes a verifier's rejection for an invalid signature: the chain
      // not answering is kept aside here and told as what it is.
      evmVerifier: (args) =>
        options.verifyMessage(args).catch((error: unknown) => {
          if (error instanceof SignatureUnverifiable) unverifiable = error;
          throw error;
        }),
    });
    if (unverifiable !== undefined) throw unverifiable;
    if (!verification.isValid || verification.payer === undefined) return null;
    const issuedAt = Date.parse(payload.issuedAt);
    const expiration = payload.expirationTime ? Date.parse(payload.expirationTime) : Infinity;
    return {
      payer: verification.payer,
      nonce: payload.nonce,
      expiresAt: Math.min(issuedAt + signInMaxAgeMs, expiration),
    };
  } catch (error) {
    if (error instanceof SignInUnavailable || error instanceof SignatureUnverifiable) throw error;
    return null;
  }
}
