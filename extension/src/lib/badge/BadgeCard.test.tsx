import { parseHTML } from "linkedom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { BadgeCard, type BadgeProps } from "./BadgeCard";
import { exampleBadgeProps } from "./exampleBadgeProps";

// The content script renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react-dom", () => import("preact/compat"));
vi.mock("react-dom/client", () => import("preact/compat/client"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));
// The card reads the channel balances and the API's origin from the extension's storage.
vi.mock("wxt/browser", async () => ({
  browser: (await import("wxt/testing/fake-browser")).fakeBrowser,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("BadgeCard", () => {
  const report = {
    type: "report" as const,
    entry: exampleHistoryEntry({
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      checkedAt: new Date(),
    }),
  };

  it("opens a new result at its top, and keeps the reader's place when the same result comes again", async () => {
    const { document } = parseHTML("<html><body><div id='root'></div></body></html>");
    vi.stubGlobal("document", document);
    // act: the card's effects (where it scrolls) run before the next line, as after a paint.
    const { act } = await import("preact/test-utils");
    const { createRoot } = await import("react-dom/client");
    const container = document.getElementById("root") as unknown as HTMLElement;
    const root = createRoot(container);
    const show = (shown: BadgeProps) => act(() => root.render(<BadgeCard {...shown} />));
    const failed = {
      type: "failed" as const,
      message: "presend's API could not be reached. Nothing was charged.",
      charged: false,
    };
    show(exampleBadgeProps({ outcome: failed, expanded: true }));
    const body = container.querySelector("[data-testid=card-body]") as HTMLElement;
    body.scrollTop = 120;
    // The side panel is sent a copy of the same result each time the page redraws the chip.
    show(exampleBadgeProps({ outcome: { ...failed }, expanded: true }));
    expect(body.scrollTop).toBe(120);
    show(exampleBadgeProps({ outcome: report, expanded: true }));
    expect(body.scrollTop).toBe(0);
  });

  it("names the wallet that pays when the page has several, and how to pay with another", async () => {
    const { document } = parseHTML("<html><body><div id='root'></div></body></html>");
    vi.stubGlobal("document", document);
    const { act } = await import("preact/test-utils");
    const { createRoot } = await import("react-dom/client");
    const container = document.getElementById("root") as unknown as HTMLElement;
    const root = createRoot(container);
    const textOf = (props: BadgeProps, testId: string) => {
      act(() => root.render(<BadgeCard {...props} />));
      return container.querySelector(`[data-testid=${testId}]`)?.textContent ?? null;
    };
    const wallet = {
      available: true,
      address: null,
      chainId: 8453,
      name: "Rabby",
      others: ["MetaMask", "Phantom"],
    };
    const notConnected = textOf(exampleBadgeProps({ expanded: true, wallet }), "wallet-connect");
    expect(notConnected).toContain("Your wallet (Rabby) is not connected to this site.");
    expect(notConnected).toContain(
      "To pay with MetaMask or Phantom instead, connect this site with it, using the site's own button.",
    );
    const connected = { ...wallet, address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" as const };
    expect(textOf(exampleBadgeProps({ expanded: true, wallet: connected }), "paying-wallet")).toBe(
      "Checks are paid with Rabby, the wallet this site is connected to.",
    );
    // One wallet: nothing to tell apart.
    const alone = { ...connected, others: [] };
    expect(
      textOf(exampleBadgeProps({ expanded: true, wallet: alone }), "paying-wallet"),
    ).toBeNull();
    expect(
      textOf(
        exampleBadgeProps({ expanded: true, wallet: { ...wallet, others: [] } }),
        "wallet-connect",
      ),
    ).not.toContain("instead");
  });

  it("isolates each wallet name (the page's to set): a right-to-left name or an override stays inside it", async () => {
    const { document } = parseHTML("<html><body><div id='root'></div></body></html>");
    vi.stubGlobal("document", document);
    const { act } = await import("preact/test-utils");
    const { createRoot } = await import("react-dom/client");
    const container = document.getElementById("root") as unknown as HTMLElement;
    const root = createRoot(container);
    const isolatedIn = (props: BadgeProps, testId: string) => {
      act(() => root.render(<BadgeCard {...props} />));
      const shown = container.querySelector(`[data-testid=${testId}]`);
      return [...(shown?.querySelectorAll("bdi") ?? [])].map((bdi) => bdi.textContent);
    };
    // An Arabic name, and one whose right-to-left override would reverse the sentence after it.
    const wallet = {
      available: true,
      address: null,
      chainId: 8453,
      name: "محفظتي",
      others: ["Evil\u202e", "MetaMask"],
    };
    expect(isolatedIn(exampleBadgeProps({ expanded: true, wallet }), "wallet-connect")).toEqual([
      "محفظتي",
      "Evil\u202e",
      "MetaMask",
    ]);
    const connected = { ...wallet, address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" as const };
    expect(
      isolatedIn(exampleBadgeProps({ expanded: true, wallet: connected }), "paying-wallet"),
    ).toEqual(["محفظتي"]);
  });
});
