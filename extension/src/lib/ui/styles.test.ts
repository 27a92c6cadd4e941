import { describe, expect, it } from "vitest";
import { cardStyles } from "./cardStyles";
import { chipStyles } from "./chipStyles";
import { styles } from "./styles";

// The selectors a stylesheet has a rule for (the part before each "{").
function selectors(css: string): string[] {
  return [...css.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/([^{}]+)\{/g)].map((match) =>
    (match[1] ?? "").trim(),
  );
}

describe("styles", () => {
  it("gives the chip everything it renders with in the content script's own stylesheet", () => {
    const chip = selectors(chipStyles).join("\n");
    for (const selector of [
      ":host",
      ".presend",
      ".badge-root",
      ".badge-chip",
      ".dot",
      "button",
      ".visually-hidden",
    ]) {
      expect(chip).toContain(selector);
    }
    for (const level of ["ok", "caution", "warn", "danger"]) {
      expect(chip).toContain(`.level-${level}`);
    }
  });

  it("leaves the card's rules to the card's stylesheet (loaded with the verdict UI chunk)", () => {
    const chip = selectors(chipStyles).join("\n");
    for (const selector of [".card", ".card-head", ".card-body", ".verdict", ".reasons", "table"]) {
      expect(chip).not.toContain(selector);
      expect(selectors(cardStyles).join("\n")).toContain(selector);
    }
  });

  it("gives the extension pages both, the chip's first (the card's build on its tokens)", () => {
    expect(styles.indexOf(chipStyles)).toBe(0);
    expect(styles.indexOf(cardStyles)).toBe(chipStyles.length);
  });
});
