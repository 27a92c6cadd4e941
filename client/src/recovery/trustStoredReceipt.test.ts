import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { describe, expect, it } from "vitest";
import type { PinRecord } from "../PinStore";
import type { FollowedRotation, RotationTarget } from "../policy/followKeyRotation";
import { paidOnce } from "../testing/paidOnce";
import { samplePin } from "../testing/pinStoreContract";
import { trustStoredReceipt } from "./trustStoredReceipt";

/** No discovery document vouches for another key. */
const noRotation = async (): Promise<FollowedRotation> => ({
  type: "refused",
  message: "No rotation statement.",
});

/** The stored receipt body as /receipts answers the payer. */
async function storedReceipt(receipts?: "settled" | "forged") {
  const paid = await paidOnce(receipts ? { receipts } : {});
  const signature = await paid.payer.signMessage({ message: receiptMessage(paid.nonce) });
  const answer = await paid.server.fetch(
    `http://api.test/receipts/${paid.payer.address}/${paid.nonce}?signature=${signature}`,
  );
  return { ...paid, body: (await answer.json()) as Record<string, unknown> };
}

describe("trustStoredReceipt", () => {
  it("trusts the payment asked for, its report signature verified", async () => {
    const { body, pin, payer, nonce, server } = await storedReceipt();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    expect(await trustStoredReceipt(body, pin, "/check", by, noRotation)).toMatchObject({
      type: "report",
      recovered: true,
      receipt: null,
      settlement: { transaction: server.transaction, payer: payer.address },
    });
    expect(
      await trustStoredReceipt(
        body,
        pin,
        null,
        {
          transaction: server.transaction as `0x${string}`,
        },
        noRotation,
      ),
    ).toMatchObject({ type: "report" });
  });

  it("takes no receipt of another payment, another route or another shape", async () => {
    const { body, pin, payer, nonce } = await storedReceipt();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    const otherNonce = {
      authorization: { ...by.authorization, nonce: `0x${"00".repeat(32)}` as const },
    };
    expect(await trustStoredReceipt(body, pin, "/check", otherNonce, noRotation)).toBeNull();
    // The nonce alone does not name a payment: another payer's authorization may carry the same
    // one, and its report is not this payer's.
    const otherPayer = {
      authorization: { ...by.authorization, payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" },
    } as const;
    expect(await trustStoredReceipt(body, pin, "/check", otherPayer, noRotation)).toBeNull();
    expect(
      await trustStoredReceipt(
        body,
        pin,
        "/check",
        { transaction: `0x${"cd".repeat(32)}` },
        noRotation,
      ),
    ).toBeNull();
    expect(await trustStoredReceipt(body, pin, "/deep", by, noRotation)).toBeNull();
    expect(
      await trustStoredReceipt({ ...body, tx: "not a hash" }, pin, "/check", by, noRotation),
    ).toBeNull();
  });

  it("calls a stored report that does not verify forged, charged", async () => {
    const { body, pin, payer, nonce } = await storedReceipt("forged");
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    expect(await trustStoredReceipt(body, pin, "/check", by, noRotation)).toMatchObject({
      type: "forged",
      charged: true,
    });
  });

  it("verifies a report paid before a rotation with the key the pin replaced, not one made after it handed over", async () => {
    const { body, pin, payer, nonce } = await storedReceipt();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    const checkedAt = Date.parse((body.report as { checkedAt: string }).checkedAt);
    const movedAfter = (ms: number) => ({
      ...samplePin,
      previous: [
        {
          jwk: pin.jwk,
          fingerprint: pin.fingerprint,
          until: new Date(checkedAt + ms).toISOString(),
        },
      ],
    });
    expect(
      await trustStoredReceipt(body, movedAfter(1000), "/check", by, noRotation),
    ).toMatchObject({
      type: "report",
      recovered: true,
    });
    expect(
      await trustStoredReceipt(body, movedAfter(-3_600_000), "/check", by, noRotation),
    ).toMatchObject({
      type: "forged",
      charged: true,
      message: /after that key handed over/,
    });
    expect(await trustStoredReceipt(body, samplePin, "/check", by, noRotation)).toMatchObject({
      type: "forged",
      message: /neither the pinned key/,
    });
  });

  it("verifies a report signed again by a key the pinned one handed over to, once its rotation statements are followed", async () => {
    // A server that kept no signature of a report (earlier releases kept none for checks paid
    // over a channel) signs it when it is fetched, with whatever key it holds by then.
    const { body, pin, payer, nonce } = await storedReceipt();
    const by = { authorization: { payer: payer.address, nonce, amount: "", payTo: payer.address } };
    const asked: RotationTarget[] = [];
    const followedTo =
      (next: PinRecord) =>
      async (target: RotationTarget): Promise<FollowedRotation> => {
        asked.push(target);
        return { type: "followed", pin: next };
      };
    expect(await trustStoredReceipt(body, samplePin, "/check", by, followedTo(pin))).toMatchObject({
      type: "report",
      charged: true,
    });
    expect(asked).toEqual([{ kid: pin.jwk.kid }]);
    // Followed to a key that did not sign it: the signature decides, forged.
    expect(
      await trustStoredReceipt(body, samplePin, "/check", by, followedTo(samplePin)),
    ).toMatchObject({ type: "forged", charged: true });
    expect(await trustStoredReceipt(body, samplePin, "/check", by, noRotation)).toMatchObject({
      type: "forged",
      message: /neither the pinned key .* No rotation statement/,
    });
  });
});
