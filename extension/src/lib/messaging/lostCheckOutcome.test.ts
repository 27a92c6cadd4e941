import { describe, expect, it } from "vitest";
import { backgroundStoppedMessage, lostCheckOutcome } from "./lostCheckOutcome";
import { MessageError } from "./MessageError";

describe("lostCheckOutcome", () => {
  it("shows the background's own error and does not claim nothing was charged", () => {
    const error = new MessageError({ code: "failed", message: "The background went away." });
    // Strict: without a recovery id the outcome has no recoveryId key at all.
    expect(lostCheckOutcome(error)).toStrictEqual({
      type: "failed",
      message: "The background went away.",
      charged: "unknown",
    });
  });

  it("says in plain words that the background stopped when the browser's messaging failed", () => {
    // Chromium's words when the service worker is stopped while it holds the answer.
    const closed = new Error(
      "A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received",
    );
    expect(lostCheckOutcome(closed)).toMatchObject({
      message: backgroundStoppedMessage,
      charged: "unknown",
    });
    expect(lostCheckOutcome("timeout")).toMatchObject({ message: backgroundStoppedMessage });
  });

  it("names the payment written down for the click, so its report can be fetched", () => {
    expect(lostCheckOutcome(new Error("gone"), "r-1")).toEqual({
      type: "failed",
      message: backgroundStoppedMessage,
      charged: "unknown",
      recoveryId: "r-1",
    });
  });
});
