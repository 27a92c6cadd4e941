import {
  parseSIWxHeader,
  SIGN_IN_WITH_X,
  validateSIWxMessage,
  verifySIWxSignature,
} from "@x402/extensions/sign-in-with-x";
import type { SignInState } from "./createSignInState";

/** The request header a signed-in client sends (base64 JSON, x402 v2). */
export const signInHeader = SIGN_IN_WITH_X;

/** A verified sign-in: the wallet, and the nonce to spend once the sign-in is used. */
export type SignedIn = { payer: string; nonce: string };

/**
 * Checks a SIGN-IN-WITH-X header with the official functions: the message is bound to presend's
 * public origin, fresh (issued within 5 minutes, not expired), its nonce not used before, and
 * signed by the wallet it names (EIP-191). null when any of it fails.
 * @example const signedIn = await verifySignIn(c.req.header(signInHeader), { origin, state });
 */
export async function verifySignIn(
  header: string | undefined,
  options: { origin: string; state: SignInState },
): Promise<SignedIn | null> {
  if (header === undefined || header === "") return null;
  try {
    const payload = parseSIWxHeader(header);
    const validation = await validateSIWxMessage(payload, new URL(options.origin), {
      checkNonce: (nonce) => !options.state.nonceUsed(nonce),
    });
    if (!validation.isValid) return null;
    const verification = await verifySIWxSignature(payload);
    if (!verification.isValid || verification.payer === undefined) return null;
    return { payer: verification.payer, nonce: payload.nonce };
  } catch {
    return null;
  }
}
