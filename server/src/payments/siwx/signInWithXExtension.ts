import type { ResourceServerExtension } from "@x402/core/types";
import {
  createSIWxResourceServerExtension,
  declareSIWxExtension,
  InMemorySIWxStorage,
} from "@x402/extensions/sign-in-with-x";

/** How long a sign-in challenge of a 402 may be signed for. */
export const signInChallengeSeconds = 300;

/**
 * The official sign-in-with-x extension as presend offers it: each 402 carries a fresh challenge
 * (domain and URI of the public origin, nonce, issuedAt, expiry, the payment network's chain).
 * Only the challenge is taken from the package: who may re-read what is decided by presend's
 * payment records (`siwxReread`, `/receipts`), per request (route, address, chain) and not per
 * path as the package's own storage hooks would.
 * @example resourceServer.registerExtension(signInWithXExtension(publicUrl));
 */
export function signInWithXExtension(publicUrl: string): ResourceServerExtension {
  const official = createSIWxResourceServerExtension({
    // Never consulted: the request and settle hooks that read it are not registered.
    storage: new InMemorySIWxStorage(),
    origin: new URL(publicUrl).origin,
  });
  return {
    key: official.key,
    ...(official.dynamicInfoFields && { dynamicInfoFields: official.dynamicInfoFields }),
    ...(official.enrichPaymentRequiredResponse && {
      enrichPaymentRequiredResponse: official.enrichPaymentRequiredResponse,
    }),
  };
}

/** A paid route's declaration of the extension (the network comes from its accepts). */
export function declareSignInWithX() {
  return declareSIWxExtension({
    // Shown by wallets; short, as the client echoes every 402 extension in its payment header.
    statement: "Read again a presend report you paid for.",
    expirationSeconds: signInChallengeSeconds,
  });
}
