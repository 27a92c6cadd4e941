import { describe, expect, it } from "vitest";
import { lostCheckOutcome } from "./lostCheckOutcome";
import { MessageError } from "./MessageError";

describe("lostCheckOutcome", () => {
  it("shows the error's own message and does not claim nothing was charged", () => {
    const error = new MessageError({ code: "failed", message: "The background went away." });
    // Strict: without a recovery id the outcome has no recoveryId key at all.
    expect(lostCheckOutcome(error)).toStrictEqual({
      type: "failed",
      message: "The background went away.",
      charged: "unknown",
    });
    expect(lostCheckOutcome("timeout")).toMatchObject({ message: "timeout", charged: "unknown" });
  });

  it("names the payment written down for the click, so its report can be fetched", () => {
    expect(lostCheckOutcome(new Error("gone"), "r-1")).toEqual({
      type: "failed",
      message: "gone",
      charged: "unknown",
      recoveryId: "r-1",
    });
  });
});
