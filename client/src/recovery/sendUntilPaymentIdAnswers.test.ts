import { describe, expect, it } from "vitest";
import { sendUntilPaymentIdAnswers } from "./sendUntilPaymentIdAnswers";

const inFlight = () =>
  Response.json(
    { error: { code: "payment_id_in_flight", message: "Another call is paying." } },
    { status: 409 },
  );

describe("sendUntilPaymentIdAnswers: a retry by payment id waits for the first call", () => {
  it("sends again, backing off, until the call with the same payment id has answered", async () => {
    const answers = [inFlight(), inFlight(), inFlight(), Response.json({ report: true })];
    const slept: number[] = [];
    const answer = await sendUntilPaymentIdAnswers(async () => answers.shift() ?? inFlight(), {
      sleep: async (ms) => {
        slept.push(ms);
      },
    });
    expect(await answer.json()).toEqual({ report: true });
    expect(slept).toEqual([250, 500, 1_000]);
  });

  it("gives the last answer once the wait is over (backing off up to 2 s a step)", async () => {
    let sent = 0;
    const slept: number[] = [];
    const answer = await sendUntilPaymentIdAnswers(
      async () => {
        sent += 1;
        return inFlight();
      },
      { waitMs: 6_000, sleep: async (ms) => void slept.push(ms) },
    );
    expect(answer.status).toBe(409);
    expect(slept).toEqual([250, 500, 1_000, 2_000, 2_000, 2_000]);
    expect(sent).toBe(7);
  });

  it("sends once when the answer is anything else, and lets a failed send throw", async () => {
    let sent = 0;
    const conflict = await sendUntilPaymentIdAnswers(async () => {
      sent += 1;
      return Response.json(
        { error: { code: "payment_id_conflict", message: "" } },
        { status: 409 },
      );
    });
    expect(conflict.status).toBe(409);
    expect(sent).toBe(1);
    await expect(
      sendUntilPaymentIdAnswers(async () => {
        throw new TypeError("socket hang up");
      }),
    ).rejects.toThrow("socket hang up");
  });
});
