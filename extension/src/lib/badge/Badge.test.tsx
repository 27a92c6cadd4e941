import { parseHTML } from "linkedom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { Badge } from "./Badge";
import type { BadgeProps } from "./BadgeCard";
import { exampleBadgeProps } from "./exampleBadgeProps";

// The content script renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react-dom", () => import("preact/compat"));
vi.mock("react-dom/client", () => import("preact/compat/client"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

/** The text of the badge's status region (what a screen reader is told), after rendering `shown`. */
async function news(shown: BadgeProps): Promise<string | null> {
  const { document } = parseHTML("<html><body><div id='root'></div></body></html>");
  vi.stubGlobal("document", document);
  const { flushSync } = await import("react-dom");
  const { createRoot } = await import("react-dom/client");
  const container = document.getElementById("root") as unknown as HTMLElement;
  flushSync(() => createRoot(container).render(<Badge {...shown} />));
  const region = container.querySelector('[role="status"]');
  return region ? (region.textContent ?? "") : null;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("Badge", () => {
  const report = {
    type: "report" as const,
    entry: exampleHistoryEntry({ address, checkedAt: new Date() }),
  };

  it("keeps a status region that is silent until a paid check runs", async () => {
    expect(await news(exampleBadgeProps())).toBe("");
  });

  it("tells a running check, then its decision, whether the card is open or not", async () => {
    expect(await news(exampleBadgeProps({ busy: true }))).toBe("presend, 0xd8dA…6045: Checking…");
    expect(await news(exampleBadgeProps({ outcome: report }))).toBe(
      "presend, 0xd8dA…6045: Looks fine to send",
    );
    expect(await news(exampleBadgeProps({ outcome: report, expanded: true }))).toBe(
      "presend, 0xd8dA…6045: Looks fine to send",
    );
  });

  it("tells a lost answer, then what 'Fetch my report' proved: nothing charged is a check not done", async () => {
    const lost = {
      type: "failed" as const,
      message: "Report not received: presend's background stopped.",
      charged: "unknown" as const,
      recoveryId: "recovery-1",
    };
    expect(await news(exampleBadgeProps({ outcome: lost }))).toBe(
      "presend, 0xd8dA…6045: Report not received",
    );
    const proven = { type: "not_charged" as const, message: "Nothing was charged." };
    expect(
      await news(exampleBadgeProps({ outcome: lost, recovery: { busy: false, result: proven } })),
    ).toBe("presend, 0xd8dA…6045: Check not done");
  });
});
