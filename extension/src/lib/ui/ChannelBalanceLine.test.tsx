import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChannelBalance } from "../channel/channelBalances";
import { resyncShownMs } from "../channel/resyncShownMs";
import { ChannelBalanceLine } from "./ChannelBalanceLine";

// The card renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const balance: ChannelBalance = {
  channelId: `0x${"ab".repeat(32)}`,
  apiUrl: "http://api.test",
  payer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  deposited: "50000",
  charged: "20000",
  updatedAt: "2025-06-01T12:00:00.000Z",
};

function lines(
  balances: ChannelBalance[],
  inCard = false,
  apiOrigin = "http://api.test",
): string[] {
  const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const root = document.getElementById("root") as unknown as Element;
  render(h(ChannelBalanceLine, { balances, apiOrigin, inCard }), root);
  return [...root.querySelectorAll('[data-testid="channel-balance"]')].map(
    (e) => e.textContent ?? "",
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("ChannelBalanceLine", () => {
  it("says what is left, and in the card where to close the channel", () => {
    expect(lines([balance])).toEqual([
      "Channel of 0xf39F…2266: $0.03 of $0.05 left. Checks paid by that account take no wallet prompt.",
    ]);
    expect(lines([balance], true)[0]).toContain(
      "close it in presend's toolbar popup to get the rest back.",
    );
  });

  it("shows nothing for a spent channel, and a channel whose key is gone as one that pays no more", () => {
    expect(lines([{ ...balance, charged: "50000" }])).toEqual([]);
    expect(lines([{ ...balance, sessionEnded: true }])).toEqual([
      "An earlier channel holds $0.03: it pays no more checks, and presend's server sends it back to your wallet after a day without checks.",
    ]);
  });

  it("says a channel was re-synced with the server for a while after it was", () => {
    const now = Date.parse("2025-06-01T12:00:00.000Z");
    vi.spyOn(Date, "now").mockReturnValue(now);
    const resynced = { ...balance, resyncedAt: new Date(now - 60_000).toISOString() };
    expect(lines([resynced])).toEqual([
      "Channel of 0xf39F…2266 (re-synced with presend's server): $0.03 of $0.05 left. Checks paid by that account take no wallet prompt.",
    ]);
    const later = { ...balance, resyncedAt: new Date(now - resyncShownMs).toISOString() };
    expect(lines([later])[0]).toMatch(/^Channel of 0xf39F…2266: \$0\.03 of \$0\.05 left\./);
    vi.restoreAllMocks();
  });

  it("leaves another API's channel out of the card, and in the popup says checks do not pay from it", () => {
    const elsewhere = { ...balance, apiUrl: "https://other.example" };
    expect(lines([elsewhere], true)).toEqual([]);
    expect(lines([elsewhere])).toEqual([
      "A channel with other.example, not the API in your settings, holds $0.03 of $0.05 left; checks here do not pay from it.",
    ]);
    // Only the settings' API's channel makes the no-prompt promise in the card.
    expect(lines([elsewhere, balance], true)).toHaveLength(1);
  });
});
