import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LookalikeComparison } from "./LookalikeComparison";

// The card renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

// A genuine counterparty and a poisoning address minted to share its first and last 4 characters.
const genuine = `0xAbCd${"1".repeat(31)}512Ef`;
const lookalike = `0xabcd${"2".repeat(31)}512ef`;

function shown(checked: string, real: string) {
  const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const root = document.getElementById("root") as unknown as Element;
  render(h(LookalikeComparison, { checked, genuine: real }), root);
  const part = (id: string) => root.querySelector(`[data-testid="${id}"]`);
  return {
    marked: (id: string) =>
      [...(part(id)?.querySelectorAll("mark") ?? [])].map((m) => m.textContent),
    text: (id: string) => part(id)?.textContent ?? "",
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("LookalikeComparison", () => {
  it("shows both addresses in full with the characters that differ marked in each", () => {
    const card = shown(lookalike, genuine);
    expect(card.text("lookalike-checked")).toBe(lookalike);
    expect(card.text("lookalike-genuine")).toBe(genuine);
    // The 31 characters of the middle differ; the "5" both share before the end does not.
    expect(card.marked("lookalike-checked")).toEqual(["2".repeat(31)]);
    expect(card.marked("lookalike-genuine")).toEqual(["1".repeat(31)]);
  });

  it("says in words how many characters differ, so the difference does not rest on colour", () => {
    expect(shown(lookalike, genuine).text("lookalike-differs")).toContain(
      "differs in 31 characters",
    );
  });

  it("does not count a change of letter case (EIP-55) as a difference", () => {
    const checked = `0xabcd${"1".repeat(30)}3512ef`;
    const card = shown(checked, genuine);
    expect(card.marked("lookalike-checked")).toEqual(["3"]);
    expect(card.marked("lookalike-genuine")).toEqual(["1"]);
    expect(card.text("lookalike-differs")).toContain("differs in 1 character ");
  });

  it("marks separate runs of differing characters separately", () => {
    const checked = `0xabcd9${"1".repeat(29)}9512ef`;
    expect(shown(checked, genuine).marked("lookalike-checked")).toEqual(["9", "9"]);
  });
});
