import type { Context } from "hono";
import type { PayerMessageVerifier } from "../facilitator/createPayerMessageVerifier";
import { SignatureUnverifiable } from "../facilitator/SignatureUnverifiable";
import type { PaymentRecord } from "../records/paymentRecords";
import type { SignInState } from "./createSignInState";
import { signInHeader, verifySignIn } from "./verifySignIn";

/**
 * For `/receipts`: whether the request is signed in (Sign-In-With-X) by the record's payer. The
 * sign-in's nonce is spent when it is: one signed message reads one receipt. When the sign-in
 * state does not answer the sign-in is refused (false: the route's 403 names the signature
 * parameter, which needs no state). When the payment chain cannot be read to check a smart
 * account's signature it rejects with SignatureUnverifiable: unknown, which the route must not
 * answer as "not the payer".
 * @example registerReceiptRoute(app, { records, signReport, signedIn: signedInPayer({ origin, state, verifyMessage }) })
 */
export function signedInPayer(options: {
  origin: string;
  state: SignInState;
  verifyMessage: PayerMessageVerifier;
}) {
  return async (c: Context, record: PaymentRecord): Promise<boolean> => {
    try {
      const signedIn = await verifySignIn(c.req.header(signInHeader), options);
      if (signedIn === null || signedIn.payer.toLowerCase() !== record.payer.toLowerCase()) {
        return false;
      }
      return await options.state.useNonce(signedIn.nonce, signedIn.expiresAt);
    } catch (error) {
      if (error instanceof SignatureUnverifiable) throw error;
      return false;
    }
  };
}
