import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { describe, expect, it } from "vitest";
import { paidOnce } from "../testing/paidOnce";
import { recoverUnknownCharge } from "./recoverUnknownCharge";

const requirement = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02912",
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  // Not the usual 60 s, so the message is seen to say this requirement's own timeout.
  maxTimeoutSeconds: 120,
  extra: {},
} as const;

async function charge(receipts: "settled" | "pending") {
  const paid = await paidOnce({ receipts });
  const authorization = {
    payer: paid.payer.address,
    nonce: paid.nonce,
    amount: "10000",
    payTo: requirement.payTo,
  };
  return { ...paid, authorization, route: "/check" as const, requirement };
}

describe("recoverUnknownCharge", () => {
  it("fetches the report again by payer and nonce when the charge is unknown", async () => {
    const { config, ...known } = await charge("settled");
    expect(
      await recoverUnknownCharge(config, { ...known, what: "HTTP 502.", settlement: null }),
    ).toMatchObject({ type: "report", recovered: true, charged: true });
  });

  it("when it cannot: charged unknown, and the request that fetches the report later", async () => {
    const { config, ...known } = await charge("pending");
    const outcome = await recoverUnknownCharge(config, {
      ...known,
      what: "The paid request was answered with HTTP 502.",
      settlement: null,
    });
    expect(outcome).toMatchObject({
      type: "unrecovered",
      charged: "unknown",
      settlement: null,
      authorization: known.authorization,
      message: "The paid request was answered with HTTP 502. Charged: unknown.",
    });
    const recover = outcome.type === "unrecovered" ? outcome.recover : "";
    expect(recover).toContain(
      `GET http://api.test/receipts/${known.payer.address}/${known.nonce}?signature=<the payer's EIP-191 signature of "${receiptMessage(known.nonce)}">;`,
    );
    expect(recover).toContain("cannot settle after 120 s");
  });

  it("with a settlement known: charged yes, fetched by its transaction", async () => {
    const { config, ...known } = await charge("pending");
    const settlement = {
      transaction: `0x${"ef".repeat(32)}` as const,
      network: "eip155:8453",
      payer: known.payer.address,
      amount: "10000",
      payTo: requirement.payTo,
    };
    const outcome = await recoverUnknownCharge(config, { ...known, what: "HTTP 500.", settlement });
    expect(outcome).toMatchObject({
      type: "unrecovered",
      charged: true,
      settlement,
      message: `HTTP 500. Charged: yes, settlement ${settlement.transaction}.`,
    });
    expect(outcome.type === "unrecovered" && outcome.recover).toBe(
      `GET http://api.test/receipts/${settlement.transaction}?signature=<the payer's EIP-191 signature of "${receiptMessage(settlement.transaction)}">`,
    );
    const lookedUp = known.server.requests
      .map(({ url }) => url.split("?")[0])
      .filter((path) => path?.includes("/receipts/"));
    expect(new Set(lookedUp)).toEqual(
      new Set([`http://api.test/receipts/${settlement.transaction}`]),
    );
  });
});
