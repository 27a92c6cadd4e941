import { describe, expect, it } from "vitest";
import { namedReceiptNonce } from "./namedReceiptNonce";

const payer = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
const nonce = `0x${"ab".repeat(32)}`;
const answer = (location?: string) =>
  new Response("{}", {
    status: 502,
    headers: location === undefined ? {} : { "PRESEND-RECEIPT": location },
  });

describe("namedReceiptNonce", () => {
  it("reads the nonce of this payer's receipt the answer names, whatever the URL's host", () => {
    expect(
      namedReceiptNonce(
        answer(`https://api.example/receipts/${payer.toLowerCase()}/${nonce}`),
        payer,
      ),
    ).toBe(nonce);
    expect(
      namedReceiptNonce(
        answer(
          `http://10.0.0.5:8402/v1/receipts/${payer}/${nonce.toUpperCase().replace("0X", "0x")}`,
        ),
        payer,
      ),
    ).toBe(nonce);
  });

  it("takes none from no header, another payer's receipt, a receipt by transaction, or no URL", () => {
    expect(namedReceiptNonce(answer(), payer)).toBeNull();
    const other = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    expect(
      namedReceiptNonce(answer(`https://api.example/receipts/${other}/${nonce}`), payer),
    ).toBeNull();
    expect(namedReceiptNonce(answer(`https://api.example/receipts/${nonce}`), payer)).toBeNull();
    expect(namedReceiptNonce(answer(`/receipts/${payer}/${nonce}`), payer)).toBeNull();
  });
});
