const singleSpacedWords = /^\S+(?: \S+)*$/;

/**
 * Wraps text at word boundaries to `width` characters; continuation lines get `indent`.
 * @example wrapText("- a long reason ...", { width: 40, indent: "  " }) // ["- a long ...", "  reason ..."]
 */
export function wrapText(
  text: string,
  { width, indent = "" }: { width: number; indent?: string },
): string[] {
  // Most texts of a report are one short line with single spaces already: nothing to split,
  // collapse or wrap (every report formats a few dozen of them).
  if (text.length <= width && singleSpacedWords.test(text)) return [text];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((part) => part.length > 0)) {
    const prefix = lines.length === 0 ? "" : indent;
    const candidate = line === "" ? `${prefix}${word}` : `${line} ${word}`;
    // A single word longer than the width (a URL, an address) stays whole rather than break.
    if (candidate.length > width && line !== "") {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = candidate;
    }
  }
  if (line !== "") lines.push(line);
  return lines;
}
