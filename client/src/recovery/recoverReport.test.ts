import { describe, expect, it } from "vitest";
import { paidOnce } from "../testing/paidOnce";
import { recoverReport } from "./recoverReport";

describe("recoverReport", () => {
  it("says it is recovering, then answers the stored report or null", async () => {
    const settled = await paidOnce();
    const by = {
      authorization: {
        payer: settled.payer.address,
        nonce: settled.nonce,
        amount: "",
        payTo: settled.payer.address,
      },
    };
    settled.events.length = 0;
    expect(
      await recoverReport(settled.config, by, settled.pin, settled.payer, "/check"),
    ).toMatchObject({
      type: "report",
      recovered: true,
    });
    expect(settled.events).toEqual([{ type: "recovering", ...by }]);
    const pending = await paidOnce({ receipts: "pending" });
    expect(
      await recoverReport(
        pending.config,
        {
          authorization: {
            ...by.authorization,
            nonce: pending.nonce,
            payer: pending.payer.address,
          },
        },
        pending.pin,
        pending.payer,
        "/check",
      ),
    ).toBeNull();
  });
});
