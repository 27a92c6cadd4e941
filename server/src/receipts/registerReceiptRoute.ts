import { createRoute, z } from "@hono/zod-openapi";
import { addressPattern } from "@presend/shared/address/addressPattern";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { type Receipt, ReceiptSchema } from "@presend/shared/api/receipt";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Context } from "hono";
import { getAddress, type Hex, verifyMessage } from "viem";
import type { App, AppEnv } from "../http/appEnv";
import { jsonError } from "../http/jsonError";
import type { ReportSigner } from "../payments/attestation/createReportSigner";
import { channelSchedule } from "../payments/channels/createChannels";
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
      "invalid_body: the signature query parameter given more than once (one 0x value is asked); receipt_ambiguous (by transaction only): the transaction is a payment channel's claim, which settled several checks at once: fetch each by /receipts/{payer}/{nonce}.",
    content: errorContent,
  },
  403: { description: "Missing signature, or not signed by the payer.", content: errorContent },
  404: {
    description: "No settled payment recorded here (or one that was never charged).",
    content: errorContent,
  },
  409: {
    description:
      "settlement_unknown: the payment's outcome is not known yet; the message says by when it will be.",
    content: errorContent,
  },
  500: {
    description:
      "internal_error: a fault in presend (the payment records could not be read, a bug); it says nothing about charging: ask again shortly.",
    content: errorContent,
  },
};

const byTransaction = createRoute({
  method: "get",
  path: "/receipts/{tx}",
  tags: ["verification"],
  summary: "Fetch a paid report again, by settlement transaction",
  description:
    'For a payer whose response was lost: the stored report of a settled payment. Prove you are the payer with an EIP-191 signature (personal_sign) by the paying key over "presend receipt <tx>" (tx in lowercase) in the signature query parameter.',
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
     * What a record answers is the records' (`answerNow`): they decide an open record past its
     * promised time from the chain; nothing else is written here.
     */
    records: Pick<
      PaymentRecords,
      "byTransaction" | "byAuthorization" | "paidOverChannel" | "answerNow"
    >;
    signReport: ReportSigner;
    /** The wallet a Sign-In-With-X header proves, if it proves one (it stands for `signature`). */
    signedIn?: (c: Context<AppEnv>, record: PaymentRecord) => Promise<boolean>;
  },
): void {
  app.openapi(byTransaction, async (c) => {
    const { tx } = c.req.valid("param");
    const record = bytes32Pattern.test(tx) ? await deps.records.byTransaction(tx) : undefined;
    if (record === undefined) {
      return jsonError(
        c,
        404,
        "receipt_not_found",
        bytes32Pattern.test(tx)
          ? `No settled payment ${tx} is recorded here.`
          : "No settled payment is recorded here under that path: a transaction hash is 0x and 64 hex characters.",
      ) as never;
    }
    if (deps.records.paidOverChannel(record)) {
      // One claim settles every voucher of a channel since the last one, from any number of
      // checks: the record the store finds first would be any of them.
      return jsonError(
        c,
        400,
        "receipt_ambiguous",
        `Transaction ${tx} is a payment channel's claim: it settled every check the claimed vouchers paid for, so it names no single report. Fetch each check's report by GET /receipts/{payer}/{nonce}, the receipt PRESEND-RECEIPT named when the check was paid.`,
      ) as never;
    }
    return (await answer(c, record, tx, c.req.valid("query").signature, deps)) as never;
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

async function answer(
  c: Context<AppEnv>,
  record: PaymentRecord,
  signed: string,
  signature: string | undefined,
  deps: {
    records: Pick<PaymentRecords, "answerNow">;
    signReport: ReportSigner;
    signedIn?: (c: Context<AppEnv>, record: PaymentRecord) => Promise<boolean>;
  },
): Promise<Response> {
  const { signReport } = deps;
  const message = receiptMessage(signed);
  const proven =
    (signature !== undefined &&
      hexSignature.test(signature) &&
      (await verifyMessage({
        address: record.payer as Hex,
        message,
        signature: signature as Hex,
      }).catch(() => false))) ||
    (await deps.signedIn?.(c, record)) === true;
  if (!proven) {
    return jsonError(
      c,
      403,
      "receipt_forbidden",
      `Only the payer may fetch this receipt: sign "${message}" with the paying key (EIP-191) and pass it as ?signature=0x..., or sign in with that wallet (SIGN-IN-WITH-X header).`,
    );
  }
  // Only the payer's request may make the records read the chain (an open record past its
  // promised time is decided now).
  const recorded: RecordAnswer = await deps.records.answerNow(record);
  if (recorded.type === "not_charged") {
    return jsonError(
      c,
      404,
      "receipt_not_found",
      "This authorization was never settled: nothing was charged and there is no report to fetch.",
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
