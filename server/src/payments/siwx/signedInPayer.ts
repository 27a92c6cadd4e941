import type { Context } from "hono";
import type { PaymentRecord } from "../../paymentRecords/paymentRecordStore";
import type { SignInState } from "./createSignInState";
import { signInHeader, verifySignIn } from "./verifySignIn";

/**
 * For `/receipts`: whether the request is signed in (Sign-In-With-X) by the record's payer. The
 * sign-in's nonce is spent when it is: one signed message reads one receipt.
 * @example registerReceiptRoute(app, { records, signReport, signedIn: signedInPayer({ origin, state }) })
 */
export function signedInPayer(options: { origin: string; state: SignInState }) {
  return async (c: Context, record: PaymentRecord): Promise<boolean> => {
    const signedIn = await verifySignIn(c.req.header(signInHeader), options);
    if (signedIn === null || signedIn.payer.toLowerCase() !== record.payer.toLowerCase()) {
      return false;
    }
    return options.state.useNonce(signedIn.nonce);
  };
}
