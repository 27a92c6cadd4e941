import { CheckRequestSchema } from "@presend/shared/api/report";
import { decodePaymentResponseHeader } from "@x402/core/http";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import type { SettlementReceipt } from "../attestation/offerReceiptExtension";
import type { PayerMessageVerifier } from "../facilitator/createPayerMessageVerifier";
import { SignatureUnverifiable } from "../facilitator/SignatureUnverifiable";
import type { PaymentRecords } from "../records/paymentRecords";
import { settledReport } from "../resourceServer/paymentLedger";
import { type PaidRequest, rereadWindowSeconds, type SignInState } from "./createSignInState";
import { SignInUnavailable } from "./SignInUnavailable";
import { signInHeader, verifySignIn } from "./verifySignIn";

export type SignInRereadOptions = {
  records: Pick<PaymentRecords, "byAuthorization">;
  state: SignInState;
  /** Public base URL (no trailing slash): the origin sign-ins are bound to. */
  publicUrl: string;
  settlementReceipt: SettlementReceipt;
  /** The sign-in's signature as the payment chain checks it (a smart account's too). */
  verifyMessage: PayerMessageVerifier;
  clock?: () => number;
};

/**
 * Sign-In-With-X on a paid route. A request signed in by a wallet that paid for the same route,
 * address, chain and sender within the re-read window is answered from that payment's record: the same
 * report, its settlement and receipt, nothing verified or charged again, and the sign-in's nonce
 * spent. Any other signed-in request goes on to the usual 402 (the sign-in grants nothing to
 * pay with). A paid 200 is remembered for later re-reads.
 * When the sign-in state does not answer (the fleet's Redis is down) the sign-in is refused, never
 * taken unchecked: a request that also carries a payment goes on and pays as usual; a sign-in
 * alone gets 503 `sign_in_unavailable`, saying to pay or to use /receipts.
 * When Base cannot be read to check a sign-in that is not the wallet's plain ECDSA signature (a
 * smart account's), whether the wallet signed is unknown: a sign-in alone gets 503
 * `signature_unverifiable` with Retry-After, never the 402, since a client that was told to pay
 * would pay again for a report it may be entitled to read; a request that also carries a payment
 * goes on and pays as usual, as its sender chose.
 * @example createRoute({ middleware: [checkRequestGuard(), paymentIntake(), signedReport(sign), signInReread(opts), ledger, envelope, x402] })
 */
export function signInReread(options: SignInRereadOptions): MiddlewareHandler<AppEnv> {
  const clock = options.clock ?? Date.now;
  return async function signInReread(c, next) {
    const header = c.req.header(signInHeader);
    if (header !== undefined) {
      c.req.raw.headers.delete(signInHeader);
      try {
        const answer = await reread(c, header);
        if (answer !== null) return answer;
      } catch (error) {
        if (error instanceof SignatureUnverifiable) {
          if (!c.req.raw.headers.has("payment-signature")) {
            c.header("Retry-After", String(SignatureUnverifiable.retryAfterSeconds));
            return jsonError(
              c,
              503,
              "signature_unverifiable",
              `This sign-in is not the wallet's own (ECDSA) signature, and Base could not be read just now to check it as a smart account's (ERC-1271), so it is neither taken nor refused. Nothing was charged: sign in again in ${SignatureUnverifiable.retryAfterSeconds} s to read a report this wallet paid for, or fetch it from /receipts.`,
            );
          }
        } else if (!(error instanceof SignInUnavailable)) {
          throw error;
        } else if (!c.req.raw.headers.has("payment-signature")) {
          return jsonError(
            c,
            503,
            "sign_in_unavailable",
            "Signing in cannot be checked right now, so this signed message was not taken. Send the request without SIGN-IN-WITH-X to pay as usual, or fetch a report already paid for from /receipts with the payer's signature.",
          );
        }
      }
    }
    await next();
    // A payment answered already stands: a failure to remember it only costs a later re-read.
    await remember(c).catch(() => {});
  };

  async function reread(c: Context<AppEnv>, header: string): Promise<Response | null> {
    const signedIn = await verifySignIn(header, {
      origin: options.publicUrl,
      state: options.state,
      verifyMessage: options.verifyMessage,
    });
    if (signedIn === null) return null;
    const request = await paidRequest(c, signedIn.payer);
    const payment = request && (await shared(() => options.state.recentPayment(request)));
    if (!payment) return null;
    const record = await options.records.byAuthorization(payment).catch(() => undefined);
    const fresh =
      record !== undefined &&
      record.status === "settled" &&
      record.tx !== null &&
      record.route === c.req.path &&
      clock() - Date.parse(record.createdAt) <= rereadWindowSeconds * 1000;
    if (!fresh || record.tx === null) return null;
    if (!(await shared(() => options.state.useNonce(signedIn.nonce, signedIn.expiresAt)))) {
      return null;
    }
    return settledReport(c, record, record.tx, options);
  }

  async function remember(c: Context<AppEnv>): Promise<void> {
    const authorization = c.get("authorization");
    const settlement = c.res.headers.get("payment-response");
    if (c.res.status !== 200 || authorization === undefined || settlement === null) return;
    try {
      if (!decodePaymentResponseHeader(settlement).success) return;
    } catch {
      return;
    }
    const request = await paidRequest(c, authorization.payer);
    if (request) {
      await options.state.rememberPaid(request, {
        payer: authorization.payer,
        nonce: authorization.nonce,
      });
    }
  }
}

async function paidRequest(c: Context<AppEnv>, payer: string): Promise<PaidRequest | null> {
  const body = CheckRequestSchema.safeParse(await c.req.json().catch(() => null));
  if (!body.success) return null;
  return {
    payer,
    route: c.req.path,
    address: body.data.address.trim(),
    chain: body.data.chain,
    from: body.data.from?.trim() ?? "",
  };
}

/** A sign-in state call; its failure is the state being unavailable. */
async function shared<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new SignInUnavailable({ cause: error });
  }
}
