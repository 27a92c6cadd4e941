import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { receiptLocationHeader } from "../resourceServer/paymentLedger";

// The answer headers of the paid routes as the OpenAPI document declares them: an x402 client
// reads the terms, the settlement and the report's signature from these, not from the body, so a
// client generated from the document must know they are there.

type HeaderDeclaration = {
  description: string;
  required: boolean;
  schema: { type: "string" } | { type: "integer"; minimum: number };
};
/** The `headers` of one documented answer. */
export type AnswerHeaders = Record<string, HeaderDeclaration>;

const header = (description: string, required: boolean): HeaderDeclaration => ({
  description,
  required,
  schema: { type: "string" },
});

/** The x402 terms, base64 JSON of PaymentRequired: what x402 clients read from every 402. */
export const paymentRequired = (description: string) => ({
  "PAYMENT-REQUIRED": header(description, true),
});

/** The x402 settlement (base64 JSON of SettleResponse), required or only when there was one. */
export const paymentResponse = (description: string, required: boolean) => ({
  "PAYMENT-RESPONSE": header(description, required),
});

/** The detached JWS over the report and its settlement, on every paid 200. */
export const reportSignature = {
  [reportSignatureHeader]: header(
    "Detached compact ES256 JWS (attestation key) over the report and its settlement.",
    true,
  ),
};

/** Where the kept report of a payment is fetched (a /receipts path), when the answer names one. */
export const receiptLocation = (description: string) => ({
  [receiptLocationHeader]: header(description, false),
});
