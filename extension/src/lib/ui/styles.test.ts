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

// WCAG 2's contrast ratio of two #rrggbb colours.
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => {
      const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * (r ?? 0) + 0.7152 * (g ?? 0) + 0.0722 * (bl ?? 0);
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
}

describe("the level colours", () => {
  const darkStart = chipStyles.indexOf("@media (prefers-color-scheme: dark)");
  const schemes = { light: chipStyles.slice(0, darkStart), dark: chipStyles.slice(darkStart) };

  for (const [scheme, css] of Object.entries(schemes)) {
    it(`keeps every level's words at 7:1 and its mark at 3:1 or more in the ${scheme} scheme`, () => {
      for (const level of ["neutral", "ok", "caution", "warn", "danger"]) {
        const rule = new RegExp(
          `\\.level-${level} \\{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6}); --strong: (#[0-9a-f]{6}); \\}`,
        ).exec(css);
        if (!rule) throw new Error(`no ${scheme} colours for level ${level}`);
        const [, background = "", text = "", strong = ""] = rule;
        expect(contrast(text, background), `${level} text`).toBeGreaterThanOrEqual(7);
        expect(contrast(strong, background), `${level} mark`).toBeGreaterThanOrEqual(3);
      }
    });
  }
});
