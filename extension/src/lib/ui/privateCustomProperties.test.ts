import { describe, expect, it } from "vitest";
import { cardStyles } from "./cardStyles";
import { chipStyles } from "./chipStyles";
import { privateCustomProperties } from "./privateCustomProperties";

describe("privateCustomProperties", () => {
  it("renames every custom property the badge's stylesheets use, alike in one scope", () => {
    const scope = {};
    const css = privateCustomProperties(`${chipStyles}${cardStyles}`, scope);
    const names = new Set(css.match(/--[a-zA-Z][\w-]*/g));
    const salt = /--ink-([0-9a-f]{16})\b/.exec(css)?.[1];
    expect(salt).toBeDefined();
    // Nothing a page could register by the names in the extension's source, but the one the
    // host carries inline (the page reads that one anyway).
    for (const name of names) {
      if (name !== "--presend-card-room") expect(name.endsWith(`-${salt}`)).toBe(true);
    }
    for (const token of ["--ink", "--accent", "--surface", "--strong", "--s2"]) {
      expect(css).not.toMatch(new RegExp(`${token}(?![\\w-])`));
    }
    // The card's chunk, renaming later in the same isolated world, uses the chip's names.
    expect(privateCustomProperties("a { color: var(--ink); }", scope)).toBe(
      `a { color: var(--ink-${salt}); }`,
    );
  });

  it("takes another salt in another isolated world", () => {
    const a = privateCustomProperties("a { color: var(--ink); }", {});
    const b = privateCustomProperties("a { color: var(--ink); }", {});
    expect(a).not.toBe(b);
  });
});
