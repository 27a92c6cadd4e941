import { randomHex } from "../dom/randomHex";

// The isolated world's global the salt is kept on: the chip (page runtime) and the card (verdict
// UI chunk) are separate scripts of one isolated world and must rename alike. Page scripts live
// in another world and never see it.
const saltKey = "__presendCustomPropertySalt";

// Set inline on the badge's host, where the page reads it, so it keeps its name: a page that
// registers it can only make the card shorter.
const publicNames = new Set(["presend-card-room"]);

/**
 * The badge's stylesheet with its custom properties (--ink, --accent, --strong, ...) renamed
 * with a salt of this frame's isolated world. A page can CSS.registerProperty() any name it
 * knows, and a registration reaches into the badge's closed shadow root: registered as not
 * inherited, or with a syntax the badge's value does not match, a token takes the page's
 * initial value there (a paid button drawn transparent that IntersectionObserver v2 still
 * reports visible). A name the page cannot know it cannot register.
 * @example privateCustomProperties(".a { color: var(--ink); }") // ".a { color: var(--ink-3f9c…); }"
 */
export function privateCustomProperties(css: string, scope: object = globalThis): string {
  const held = scope as { [saltKey]?: string };
  held[saltKey] ??= randomHex(8);
  const salt = held[saltKey];
  return css.replace(/--([a-zA-Z][\w-]*)/g, (whole, name: string) =>
    publicNames.has(name) ? whole : `--${name}-${salt}`,
  );
}
