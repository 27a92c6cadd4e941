/**
 * The text of `element` as it is drawn, read left to right and line by line: each character's box
 * on screen, in order of its line, then of its left edge. A run of left-to-right text reads as its
 * source does; where the bidi algorithm moved a character (an address's leading "0" past a
 * right-to-left word, a full stop to the line's start), the two differ. Self-contained: it runs
 * in the page (locator.evaluate) or, as source, on an element in the badge's closed shadow root.
 */
export function visualOrder(element: Element): string {
  const chars: Array<{ char: string; x: number; y: number }> = [];
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node as Text;
    for (let i = 0; i < text.data.length; i++) {
      const range = element.ownerDocument.createRange();
      range.setStart(text, i);
      range.setEnd(text, i + 1);
      const box = range.getClientRects()[0];
      if (box && box.width > 0) {
        chars.push({ char: text.data[i] ?? "", x: box.left, y: box.top + box.height / 2 });
      }
    }
  }
  chars.sort((a, b) => (Math.abs(a.y - b.y) > 4 ? a.y - b.y : a.x - b.x));
  return chars.map((c) => c.char).join("");
}
