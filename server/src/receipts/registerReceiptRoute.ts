import { createRoute, z } from "@hono/zod-openapi";
import { addressPattern } from "@presend/shared/address/addressPattern";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { type Receipt, ReceiptSchema } from "@presend/shared/api/receipt";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Context } from "hono";
import { getAddress, type Hex } from "viem";
import type { App, AppEnv } from "../http/appEnv";
import { jsonError } from "../http/jsonError";
import type { ReportSigner } from "../payments/attestation/createReportSigner";
import { channelSchedule } from "../payments/channels/createChannels";
import type { PayerMessageVerifier } from "../payments/facilitator/createPayerMessageVerifier";
import { SignatureUnverifiable } from "../payments/facilitator/SignatureUnverifiable";
import type {
  PaymentRecord,
  PaymentRecords,
  RecordAnswer,
} from "../payments/records/paymentRecords";

const ReceiptBodySchema = ReceiptSchema.extend({}).openapi("Receipt");

const errorContent = {
  "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") },
};
const signatureQuery = z.object({
  signature: z.string().optional().openapi({ description: "0x EIP-191 signature" }),
});
const responses = {
  200: {
    description: "The stored receipt.",
    content: { "application/json": { schema: ReceiptBodySchema } },
  },
  400: {
    description:
      "invalid_body: the signature query parameter given more than once (one 0x value is asked); receipt_ambiguous (by transaction only): the transaction is a payment channel's claim, or otherwise settled several payments at once: fetch each by /receipts/{payer}/{nonce}.",
    content: errorContent,
  },
  403: {
    description:
      "receipt_forbidden: missing signature, or one the payment chain shows is not the payer's.",
    content: errorContent,
  },
  404: {
    description:
      "receipt_not_found: nothing was charged. By transaction: no record carries it and Base shows no payment recorded here in it (or does not know the transaction); by authorization: no such payment recorded, or one that was never charged.",
    content: errorContent,
  },
  409: {
    description:
      "settlement_unknown: the payment's outcome is not known yet; the message says by when it will be. By transaction also: no record carries it and Base could not be read to tell what it charged (or it is not mined yet): ask again shortly.",
    content: errorContent,
  },
  500: {
    description:
      "internal_error: a fault in presend (the payment records could not be read, a bug); it says nothing about charging: ask again shortly.",
    content: errorContent,
  },
  503: {
    description:
      "signature_unverifiable: the signature (or the SIGN-IN-WITH-X sign-in) is not a plain ECDSA signature of the payer, and Base could not be read to check it as a smart account's (ERC-1271, ERC-6492): whether it is the payer's is not known. It says nothing about charging: ask again after Retry-After seconds.",
    headers: {
      "Retry-After": {
        description: "Seconds to wait before asking again.",
        required: true,
        schema: { type: "integer" as const, minimum: 0 },
      },
    },
    content: errorContent,
  },
};

const byTransaction = createRoute({
  method: "get",
  path: "/receipts/{tx}",
  tags: ["verification"],
  summary: "Fetch a paid report again, by settlement transaction",
  description:
    'For a payer whose response was lost: the stored report of a settled payment. Prove you are the payer with an EIP-191 signature (personal_sign) by the paying account over "presend receipt <tx>" (tx in lowercase) in the signature query parameter; the signature of a smart account is checked on Base through ERC-1271 (ERC-6492 when not deployed). A transaction no record carries yet (its settled mark was not written) is looked up on Base: the payment whose authorization it used is answered as by /receipts/{payer}/{nonce}.',
  security: [],
  request: {
    params: z.object({ tx: z.string().openapi({ description: "Settlement transaction hash" }) }),
    query: signatureQuery,
  },
  responses,
});

const byAuthorization = createRoute({
  method: "get",
  path: "/receipts/{payer}/{nonce}",
  tags: ["verification"],
  summary: "Fetch a paid report again, by payer and authorization nonce",
  description:
    'For a payer who never learned the settlement transaction (the answer was lost or said settlement_unknown): the report of the payment made with their EIP-3009 authorization. Sign "presend receipt <nonce>" (nonce in lowercase) with the paying key (EIP-191) and pass it as the signature query parameter.',
  security: [],
  request: {
    params: z.object({
      payer: z.string().openapi({ description: "The paying address" }),
      nonce: z.string().openapi({ description: "The authorization nonce (bytes32)" }),
    }),
    query: signatureQuery,
  },
  responses,
});

const hexSignature = /^0x[0-9a-fA-F]{130,}$/;

/**
 * Registers GET /receipts/{tx} and GET /receipts/{payer}/{nonce}: a stored report, to its payer
 * only (an EIP-191 signature over "presend receipt <tx or nonce>").
 */
export function registerReceiptRoute(
  app: App,
  deps: {
    /**
     * What a record answers is the records' (`answerNow`): they decide an open record from the
     * chain, and find the record of a transaction no record carries from its receipt
     * (`byChainTransaction`); nothing else is written here.
     */
    records: Pick<
      PaymentRecords,
      "byTransaction" | "byChainTransaction" | "byAuthorization" | "paidOverChannel" | "answerNow"
    >;
    signReport: ReportSigner;
    /**
     * The payer's signature as the payment chain checks it: a smart account's (ERC-1271,
     * ERC-6492) as well as an EOA's.
     */
    verifyMessage: PayerMessageVerifier;
    /** The wallet a Sign-In-With-X header proves, if it proves one (it stands for `signature`). */
    signedIn?: (c: Context<AppEnv>, record: PaymentRecord) => Promise<boolean>;
  },
): void {
  app.openapi(byTransaction, async (c) => {
    const { tx } = c.req.valid("param");
    if (!bytes32Pattern.test(tx)) {
      return jsonError(
        c,
        404,
        "receipt_not_found",
        "No settled payment is recorded here under that path: a transaction hash is 0x and 64 hex characters.",
      ) as never;
    }
    let record = await deps.records.byTransaction(tx);
    let chargedBy: Hex | undefined;
    if (record === undefined) {
      // No record carries it, yet it may be a charge whose settled mark was not written (the
      // store refused the write) or whose settlement's answer was lost: the chain tells, from
      // the transaction's receipt, before anyone is told nothing was charged.
      const charge = await deps.records.byChainTransaction(tx as Hex);
      if (charge.type === "not_charged") {
        return jsonError(
          c,
          404,
          "receipt_not_found",
          `Transaction ${tx} charged no payment recorded here (Base shows none in it): nothing was charged by it.`,
        ) as never;
      }
      if (charge.type === "unknown") {
        return jsonError(
          c,
          409,
          "settlement_unknown",
          charge.reason === "pending"
            ? `Transaction ${tx} is not mined yet: what it charged is not known. Ask again once it is.`
            : `Whether transaction ${tx} charged a payment here is not known: the payment chain could not be read just now. Ask again shortly.`,
        ) as never;
      }
      if (charge.type === "several") {
        return jsonError(
          c,
          400,
          "receipt_ambiguous",
          `Transaction ${tx} settled several payments at once, so it names no single report. Fetch each by GET /receipts/{payer}/{nonce}.`,
        ) as never;
      }
      if (charge.type === "channel_claim") return channelClaim(c, tx) as never;
      record = charge.record;
      chargedBy = charge.tx;
    }
    if (deps.records.paidOverChannel(record)) return channelClaim(c, tx) as never;
    return (await answer(c, record, tx, c.req.valid("query").signature, deps, chargedBy)) as never;
  });

  app.openapi(byAuthorization, async (c) => {
    const { payer, nonce } = c.req.valid("param");
    const record =
      addressPattern.test(payer) && bytes32Pattern.test(nonce)
        ? await deps.records.byAuthorization({ payer, nonce })
        : undefined;
    if (record === undefined) {
      return jsonError(
        c,
        404,
        "receipt_not_found",
        addressPattern.test(payer) && bytes32Pattern.test(nonce)
          ? `No paid request with authorization ${nonce} of ${payer} is recorded here.`
          : "No paid request is recorded here under that path: /receipts/{payer}/{nonce} takes the payer's address and the authorization's 0x nonce (64 hex characters).",
      ) as never;
    }
    return (await answer(c, record, nonce, c.req.valid("query").signature, deps)) as never;
  });
}

/** Whether a proof of the payer holds: "unknown" when the payment chain could not be read to tell. */
async function proof(check: () => Promise<boolean>): Promise<boolean | "unknown"> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof SignatureUnverifiable) return "unknown";
    throw error;
  }
}

/** A payment channel's claim: one transaction for every check the claimed vouchers paid for. */
function channelClaim(c: Context<AppEnv>, tx: string): Response {
  // One claim settles every voucher of a channel since the last one, from any number of checks:
  // the record the store finds first would be any of them.
  return jsonError(
    c,
    400,
    "receipt_ambiguous",
    `Transaction ${tx} is a payment channel's claim: it settled every check the claimed vouchers paid for, so it names no single report. Fetch each check's report by GET /receipts/{payer}/{nonce}, the receipt PRESEND-RECEIPT named when the check was paid.`,
  );
}

async function answer(
  c: Context<AppEnv>,
  record: PaymentRecord,
  signed: string,
  signature: string | undefined,
  deps: {
    records: Pick<PaymentRecords, "answerNow" | "paidOverChannel">;
    signReport: ReportSigner;
    verifyMessage: PayerMessageVerifier;
    signedIn?: (c: Context<AppEnv>, record: PaymentRecord) => Promise<boolean>;
  },
  /** The transaction the chain showed using the record's authorization, if it was read. */
  chargedBy?: Hex,
): Promise<Response> {
  const { signReport } = deps;
  const message = receiptMessage(signed);
  // Each proof is yes, no, or unknown (Base could not be read to check a smart account's
  // signature): only a no from every proof offered is a 403; an unknown is asked again later.
  const bySignature = await proof(
    async () =>
      signature !== undefined &&
      hexSignature.test(signature) &&
      (await deps.verifyMessage({
        address: getAddress(record.payer),
        message,
        signature: signature as Hex,
      })),
  );
  const bySignIn =
    bySignature === true
      ? true
      : await proof(async () => (await deps.signedIn?.(c, record)) === true);
  if (bySignature !== true && bySignIn !== true) {
    if (bySignature === "unknown" || bySignIn === "unknown") {
      c.header("Retry-After", String(SignatureUnverifiable.retryAfterSeconds));
      return jsonError(
        c,
        503,
        "signature_unverifiable",
        `Whether this signature is the payer's is not known: it is not the paying key's own (ECDSA) signature, and Base could not be read just now to check it as the paying account's (ERC-1271). Nothing is refused: ask again in ${SignatureUnverifiable.retryAfterSeconds} s with the same signature.`,
      );
    }
    return jsonError(
      c,
      403,
      "receipt_forbidden",
      `Only the payer may fetch this receipt: sign "${message}" with the paying key (EIP-191) and pass it as ?signature=0x..., or sign in with that wallet (SIGN-IN-WITH-X header).`,
    );
  }
  // Only the payer's request may make the records read the chain (an open record past its
  // promised time is decided now).
  const recorded: RecordAnswer = await deps.records.answerNow(record, chargedBy);
  if (recorded.type === "not_charged") {
    // A receipt proves a charge: a check whose voucher the escrow proves can never be claimed
    // (its request failed before the charge, or its payer withdrew the channel's deposit before
    // the server's claim) was not paid for, and its report was the paid answer it was served with.
    return jsonError(
      c,
      404,
      "receipt_not_found",
      deps.records.paidOverChannel(record)
        ? "This check was paid over a channel whose voucher was never claimed and can no longer be (the request failed before it was charged, or the payer withdrew the channel's deposit before the server's claim): nothing was charged for it, so there is no receipt to fetch. Run the check again for a current report."
        : "This authorization was never settled: nothing was charged and there is no report to fetch.",
    );
  }
  if (recorded.type === "awaiting_claim") {
    return jsonError(
      c,
      409,
      "settlement_unknown",
      `This check was paid over a channel; its report is served once the server's next claim covers it (every ${channelSchedule.claimIntervalSecs} s). Ask again then.`,
    );
  }
  if (recorded.type === "open") {
    return jsonError(
      c,
      409,
      "settlement_unknown",
      recorded.overdue
        ? "Whether this payment settled is not known yet: the payment chain could not be read to decide it just now. Ask again shortly; it is decided from the chain as soon as the chain answers."
        : `Whether this payment settled is not known yet; ask again shortly (by ${recorded.decidedBy} it is known either way).`,
    );
  }
  const receipt: Receipt = {
    tx: recorded.tx,
    network: record.network,
    payer: getAddress(record.payer),
    nonce: record.nonce,
    payTo: record.payTo,
    route: record.route,
    amount: record.amount,
    createdAt: record.createdAt,
    report: record.report,
    signature: await signReport(record.report, {
      transaction: recorded.tx,
      network: record.network,
      payer: record.payer,
    }),
  };
  return c.json(receipt, 200);
}
