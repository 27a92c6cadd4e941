/**
 * Source of a function (run with `this` bound to a container, in the page or inside the badge's
 * shadow root) that lists the text inside it drawn below `minimum` contrast (WCAG 2 ratio) against
 * what is behind it: each visible element with text of its own and each field, its computed colour against the
 * first opaque background among itself and its ancestors (through shadow roots to the page),
 * translucent ones laid over it. Text of a disabled control is left out (WCAG exempts inactive
 * controls), as is text under a background image (no one colour to measure against).
 * @example await page.evaluate(`(${lowContrastTextFn}).call(document.body, 4.5)`) // []
 */
export const lowContrastTextFn = `function (minimum) {
  const parse = (value) => {
    const m = /rgba?\\(([\\d.]+)[ ,]+([\\d.]+)[ ,]+([\\d.]+)(?:[ ,/]+([\\d.]+))?\\)/.exec(value);
    if (!m) throw new Error("unreadable colour " + value);
    return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])];
  };
  const over = (top, below) => [0, 1, 2].map((i) => top[i] * top[3] + below[i] * (1 - top[3])).concat(1);
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const parentOf = (e) => e.parentElement ?? (e.parentNode instanceof ShadowRoot ? e.parentNode.host : null);
  // What is drawn behind the element's text: its and its ancestors' backgrounds, the page's
  // canvas (white unless the root says otherwise) below them all. Null under an image.
  const backdrop = (element) => {
    const layers = [];
    for (let e = element; e; e = parentOf(e)) {
      const style = getComputedStyle(e);
      if (style.backgroundImage !== "none") return null;
      const colour = parse(style.backgroundColor);
      if (colour[3] > 0) layers.push(colour);
      if (colour[3] === 1) break;
    }
    let colour = layers.length > 0 && layers[layers.length - 1][3] === 1 ? layers.pop() : [255, 255, 255, 1];
    while (layers.length > 0) colour = over(layers.pop(), colour);
    return colour;
  };
  const inactive = (e) => {
    for (let a = e; a; a = parentOf(a)) {
      if (a.matches(":disabled") || Number(getComputedStyle(a).opacity) < 1) return true;
    }
    return false;
  };
  const problems = [];
  for (const element of [this, ...this.querySelectorAll("*")]) {
    const field = element.matches("input:not([type=checkbox]), select, textarea");
    const text = field ? "the field " + (element.getAttribute("aria-label") || element.name) : [...element.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("").trim();
    if (!text) continue;
    const rect = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    // A closed <details> keeps its content laid out, hidden (content-visibility): not seen.
    if (rect.width <= 1 || rect.height <= 1 || !element.checkVisibility({ visibilityProperty: true })) continue;
    if (inactive(element)) continue;
    const behind = backdrop(element);
    if (!behind) continue;
    const measured = ratio(over(parse(style.color), behind), behind);
    if (measured < minimum)
      problems.push(text.slice(0, 40) + ": " + measured.toFixed(2) + " (" + style.color + " on rgb(" + behind.slice(0, 3).join(", ") + "))");
  }
  return problems;
}`;
