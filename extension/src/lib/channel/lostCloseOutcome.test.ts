import { describe, expect, it } from "vitest";
import { MessageError } from "../messaging/MessageError";
import { backgroundStoppedWhileClosingMessage, lostCloseOutcome } from "./lostCloseOutcome";

describe("lostCloseOutcome", () => {
  it("a close with no answer (the background stopped) says the refund's outcome is unknown and to close again, not the browser's words", () => {
    const outcome = lostCloseOutcome(
      new Error(
        "A listener indicated an asynchronous response by returning true, but the message channel closed before a response was received",
      ),
    );
    expect(outcome).toEqual({ type: "failed", message: backgroundStoppedWhileClosingMessage });
    expect(outcome.message).not.toMatch(/listener|message channel/);
  });

  it("an error the background answered with keeps its words", () => {
    const refused = new MessageError({ code: "not_allowed", message: "Only the popup closes." });
    expect(lostCloseOutcome(refused)).toEqual({
      type: "failed",
      message: "Only the popup closes.",
    });
  });
});
