import { describe, expect, it } from "vitest";
import {
  explainRefundFailure,
  nothingLeftToRefund,
  type RefundFailure,
} from "./explainRefundFailure";

const failure = (overrides: Partial<RefundFailure>): RefundFailure => ({
  cause: new Error("Refund failed: something the package said"),
  answers: [{ status: 402, hasTerms: true, signed: false }],
  malformedChallenge: false,
  stateMissing: false,
  lastState: undefined,
  ...overrides,
});

describe("explainRefundFailure", () => {
  it("a refund refused as out of step says why and what to do, not the package's code", () => {
    const said = explainRefundFailure(
      failure({
        cause: new Error("Refund failed: invalid_batch_settlement_evm_cumulative_amount_mismatch"),
        answers: [
          { status: 402, hasTerms: true, signed: false },
          { status: 402, hasTerms: true, signed: true },
        ],
      }),
    );
    expect(said).toMatch(/^The payment channel's record here is behind the server's/);
    expect(said).toContain("No refund was made. Close again with read access to Base");
    expect(said).not.toContain("invalid_batch_settlement");
  });

  it("never says what the server's answers do not tell: a 2xx failure falls back to the cause", () => {
    expect(
      explainRefundFailure(
        failure({
          answers: [
            { status: 402, hasTerms: true, signed: false },
            { status: 200, hasTerms: false, signed: true },
          ],
        }),
      ),
    ).toBe("The refund failed: Refund failed: something the package said");
  });

  it("tells an error before anything was signed from one after the signed refund", () => {
    const before = explainRefundFailure(
      failure({ answers: [{ status: 503, hasTerms: false, signed: false }] }),
    );
    const after = explainRefundFailure(
      failure({
        answers: [
          { status: 402, hasTerms: true, signed: false },
          { status: 503, hasTerms: false, signed: true },
        ],
      }),
    );
    expect(before).toMatch(
      /^The server did not offer a refund: it answered HTTP 503 .*Nothing was signed or sent/,
    );
    expect(after).toMatch(
      /^The server answered HTTP 503 to the signed refund, so whether it was made is not known here\./,
    );
  });

  it("a deposit the state here shows all charged is named before the server's own refusal", () => {
    expect(
      explainRefundFailure(
        failure({
          cause: new Error("invalid_batch_settlement_evm_refund_no_balance"),
          lastState: { balance: "10", chargedCumulativeAmount: "10" } as RefundFailure["lastState"],
        }),
      ),
    ).toBe("Nothing left to refund: the channel's deposit was all spent on checks.");
  });

  it("a channel the server no longer holds (refunded while idle) is named as already closed, its rest back", () => {
    const refunded = failure({
      cause: new Error("Refund failed: invalid_batch_settlement_evm_missing_channel"),
      answers: [
        { status: 402, hasTerms: true, signed: false },
        { status: 402, hasTerms: true, signed: true },
      ],
    });
    expect(explainRefundFailure(refunded)).toBe(
      "Already closed: what was left of this channel's deposit went back to your wallet (a close whose answer was lost, or presend's server's own refund after a time without checks).",
    );
    expect(nothingLeftToRefund(refunded)).toBe(true);
  });

  it("only a refusal that shows the channel holds nothing leaves nothing to refund", () => {
    expect(
      nothingLeftToRefund(
        failure({ cause: new Error("invalid_batch_settlement_evm_refund_no_balance") }),
      ),
    ).toBe(true);
    expect(nothingLeftToRefund(failure({}))).toBe(false);
    expect(
      nothingLeftToRefund(
        failure({
          answers: [{ status: 402, hasTerms: false, signed: true }],
          cause: new Error("x"),
        }),
      ),
    ).toBe(false);
  });
});
