import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { z } from "zod";
import { addressPattern } from "../address/addressPattern";

/**
 * A paid report fetched again (GET /receipts/{tx} and /receipts/{payer}/{nonce}): the stored
 * report with the settlement it was paid by. The server answers with it and documents it in
 * OpenAPI; the clients parse it before they verify its signature.
 */
export const ReceiptSchema = z.object({
  tx: z.string().regex(bytes32Pattern).describe("The settlement transaction (lowercase)."),
  network: z.string().describe("CAIP-2 network of the payment, e.g. eip155:8453."),
  payer: z.string().regex(addressPattern).describe("The paying address (EIP-55)."),
  nonce: z.string().regex(bytes32Pattern).describe("The EIP-3009 authorization nonce paid with."),
  payTo: z.string().regex(addressPattern),
  route: z.string().describe("The paid route: /check or /deep."),
  amount: z.string().regex(/^\d+$/).describe("USDC base units paid."),
  createdAt: z.string().describe("When the paid request was made (ISO)."),
  report: z.unknown().describe("The report exactly as first sent."),
  signature: z
    .string()
    .describe(
      "Detached ES256 JWS (attestation key) over the report and its settlement, as PRESEND-REPORT-SIGNATURE carried it.",
    ),
});
export type Receipt = z.infer<typeof ReceiptSchema>;
