import { exampleReport } from "@presend/client/exampleReport";
import type { ChainHistory } from "@presend/shared/api/history";
import type { Report } from "@presend/shared/api/report";
import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { VerdictView } from "./VerdictView";

// The card renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const sender = "0x1234567890AbcdEF1234567890aBcdef12345678";
const genuine = `0xAbCd${"1".repeat(32)}12Ef`;
const lookalike = `0xabcd${"2".repeat(32)}12ef` as const;

function history(lookalikes: string[], status: ChainHistory["status"] = "read"): ChainHistory {
  return {
    status,
    tokens: ["USDC"],
    fromBlock: "1",
    toBlock: "100",
    native: { status: "read", transactionsRead: 10 },
    sender:
      status === "read"
        ? {
            address: sender,
            counterparties: 3,
            paidRecipient: null,
            lookalikes: lookalikes.map((address) => ({
              address,
              payments: 6,
              lastPaidAt: null,
              lastPaidBlock: "50",
            })),
            zeroValueToRecipient: 1,
          }
        : null,
    recipient: null,
  };
}

function poisoned(chainHistory: ChainHistory, from: string | null = sender): Report {
  const report = exampleReport({ address: lookalike, checkedAt: new Date("2025-06-01") });
  return {
    ...report,
    ...(from !== null && { from }),
    chain: { ...report.chain, history: chainHistory },
    verdict: {
      ...report.verdict,
      level: "danger",
      headline: "Address poisoning",
      reasons: [
        { code: "address_poisoning", level: "danger", message: "A lookalike.", chain: "base" },
      ],
    },
  };
}

function rendered(report: Report, localDanger?: boolean) {
  const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const root = document.getElementById("root") as unknown as Element;
  render(h(VerdictView, { report, ...(localDanger !== undefined && { localDanger }) }), root);
  return root;
}

function shown(report: Report) {
  const root = rendered(report);
  return (id: string) => root.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("VerdictView", () => {
  it("shows an address-poisoning finding's genuine address beside the checked one", () => {
    const text = shown(poisoned(history([genuine])));
    expect(text("lookalike-checked")).toBe(lookalike);
    expect(text("lookalike-genuine")).toBe(genuine);
  });

  it("shows no comparison without a poisoning finding", () => {
    const report = poisoned(history([genuine]));
    const text = shown({ ...report, verdict: { ...report.verdict, reasons: [] } });
    expect(text("lookalike-comparison")).toBeNull();
  });

  it("says the check was made as the payer's payment, and whether its history was read", () => {
    expect(shown(poisoned(history([genuine])))("verdict-sender")).toBe(
      "Checked as a payment from 0x12…78: your own payment history on Base was read.",
    );
    expect(shown(poisoned(history([], "unknown")))("verdict-sender")).toBe(
      "Checked as a payment from 0x12…78: your own payment history on Base could not be read.",
    );
    expect(shown(poisoned(history([]), null))("verdict-sender")).toBeNull();
  });

  it("never shows an ok verdict green under a danger found here (a lookalike of the person's own history)", () => {
    const ok = exampleReport({ address: lookalike, checkedAt: new Date("2025-06-01") });
    expect(ok.verdict.level).toBe("ok");
    const root = rendered(ok, true);
    const decision = root.querySelector('[data-testid="verdict-decision"]');
    expect(decision?.className).toBe("decision level-danger");
    expect(decision?.textContent).toContain("Don't send");
    expect(root.querySelector('[data-testid="verdict-next"]')).toBeNull();
    expect(root.querySelector(".level-ok")).toBeNull();
    // The headline is still the server's finding, and the paid level stays on the verdict.
    expect(root.querySelector('[data-testid="verdict-headline"]')?.textContent).toBe(
      ok.verdict.headline,
    );
    expect(root.querySelector(".verdict")?.getAttribute("data-level")).toBe("ok");
    // Without a local danger the verdict is shown as the server gave it.
    const same = rendered(ok, false).querySelector('[data-testid="verdict-decision"]');
    expect(same?.className).toBe("decision level-ok");
  });
});
