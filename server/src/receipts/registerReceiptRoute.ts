import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { type Hex, verifyMessage } from "viem";
import type { App } from "../http/appEnv";
import { jsonError } from "../http/jsonError";
import type { ReportSigner } from "../payments/createReportSigner";
import type { ReceiptStore } from "./openReceiptStore";

const ReceiptBodySchema = z
  .object({
    tx: z.string(),
    network: z.string(),
    payer: z.string(),
    payTo: z.string(),
    route: z.string(),
    amount: z.string(),
    createdAt: z.string(),
    report: z.unknown().openapi({ description: "The report exactly as first sent." }),
    signature: z.string().openapi({
      description:
        "Detached ES256 JWS (attestation key) over the report and its settlement, as PRESEND-REPORT-SIGNATURE carried it.",
    }),
  })
  .openapi("Receipt");

const receiptRoute = createRoute({
  method: "get",
  path: "/receipts/{tx}",
  tags: ["verification"],
  summary: "Fetch a paid report again",
  description:
    'For a payer whose response was lost: the stored report of a settled payment. Prove you are the payer with an EIP-191 signature (personal_sign) by the paying key over "presend receipt <tx>" (tx in lowercase) in the signature query parameter.',
  security: [],
  request: {
    params: z.object({ tx: z.string().openapi({ description: "Settlement transaction hash" }) }),
    query: z.object({
      signature: z.string().optional().openapi({ description: "0x EIP-191 signature" }),
    }),
  },
  responses: {
    200: {
      description: "The stored receipt.",
      content: { "application/json": { schema: ReceiptBodySchema } },
    },
    403: {
      description: "Missing signature, or not signed by the payer.",
      content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
    },
    404: {
      description: "No settled payment with this transaction hash.",
      content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
    },
  },
});

const hexSignature = /^0x[0-9a-fA-F]{130,}$/;

/** Registers GET /receipts/{tx}: the stored report, to the payer only. */
export function registerReceiptRoute(
  app: App,
  deps: { receipts: ReceiptStore; signReport: ReportSigner },
): void {
  app.openapi(receiptRoute, async (c) => {
    const { tx } = c.req.valid("param");
    const { signature } = c.req.valid("query");
    const receipt = /^0x[0-9a-fA-F]{64}$/.test(tx) ? deps.receipts.get(tx) : undefined;
    if (receipt === undefined) {
      return jsonError(
        c,
        404,
        "receipt_not_found",
        `No settled payment ${tx} is recorded here.`,
      ) as never;
    }
    const message = receiptMessage(receipt.tx);
    const proven =
      signature !== undefined &&
      hexSignature.test(signature) &&
      (await verifyMessage({
        address: receipt.payer as Hex,
        message,
        signature: signature as Hex,
      }).catch(() => false));
    if (!proven) {
      return jsonError(
        c,
        403,
        "receipt_forbidden",
        `Only the payer may fetch this receipt: sign "${message}" with the paying key (EIP-191) and pass it as ?signature=0x...`,
      ) as never;
    }
    const reportSignature = await deps.signReport(receipt.report, {
      transaction: receipt.tx,
      network: receipt.network,
      payer: receipt.payer,
    });
    return c.json({ ...receipt, signature: reportSignature }, 200);
  });
}
