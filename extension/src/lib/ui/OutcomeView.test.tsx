import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { CheckOutcome, Progress } from "../messaging/protocol";
import { OutcomeView } from "./OutcomeView";

// The card renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const waiting: Progress = {
  step: "waiting-wallet",
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  keyFingerprint: "fingerprint",
  keyPinnedNow: false,
};

function shown(progress: Progress) {
  const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const root = document.getElementById("root") as unknown as Element;
  render(h(OutcomeView, { progress, outcome: null }), root);
  return (id: string) => root.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("OutcomeView", () => {
  it("names the paying account as the sender once the verified offer waits for the wallet", () => {
    const text = shown({ ...waiting, from: "0x1234567890AbcdEF1234567890aBcdef12345678" });
    expect(text("payment-sender")).toBe(
      "Checked as a payment from 0x12…78, the account paying: your own payment history is read too.",
    );
  });

  it("says nothing of a sender when the check is made without one", () => {
    expect(shown(waiting)("payment-sender")).toBeNull();
  });

  it("shows a channel deposit as a deposit that comes back, not as one check's payment", () => {
    const text = shown({ ...waiting, deposit: "50000" });
    expect(text("payment-terms")).toBe(
      "Sign in your wallet: a $0.05 USDC deposit to presend's channel (0x7099…79C8) on Base; unspent funds come back to you when you close it.",
    );
    expect(shown(waiting)("payment-terms")).toContain("a $0.01 USDC payment to presend");
  });

  it("offers the settings under a failure they may fix, not under a channel out of step", () => {
    const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
    vi.stubGlobal("document", document);
    vi.stubGlobal("window", window);
    const root = document.getElementById("root") as unknown as Element;
    const offered = (outcome: CheckOutcome) => {
      render(h(OutcomeView, { progress: null, outcome, onOpenSettings: () => {} }), root);
      return root.querySelector('[data-action="settings"]') !== null;
    };
    const failed = { type: "failed", message: "The API did not answer.", charged: false } as const;
    expect(offered(failed)).toBe(true);
    expect(offered({ ...failed, code: "channel_out_of_step" })).toBe(false);
  });
});
