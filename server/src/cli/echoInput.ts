/** Longer than any address or id the tools take (a bytes32 is 66): such a value is echoed whole. */
const wholeUpTo = 80;
/** How much of each end of a longer value is shown: enough to recognise what was sent. */
const endLength = 10;

/**
 * A caller's input as the CLI and the MCP tools echo it: whole when it is as short as an address,
 * otherwise its two ends and its length, clearly marked as shortened, so a pasted blob does not
 * come back whole into a terminal or an agent's context. Characters that would break the line
 * (control characters, newlines) are shown as "?". Every other character outside ASCII is shown
 * as its code point (`\u{410}`): an address refused for a lookalike letter (Cyrillic "А" for
 * "A") or an invisible one (a zero-width space, a right-to-left override) would otherwise be
 * echoed looking exactly like a valid address, its fault not to be seen.
 * @example echoInput("0x".padEnd(5000, "a")) // '"0xaaaaaaaa…aaaaaaaaaa" (shortened: 5000 characters)'
 */
export function echoInput(value: string): string {
  const chars = Array.from(value, shown);
  if (chars.length <= wholeUpTo) return chars.join("");
  return `"${chars.slice(0, endLength).join("")}…${chars.slice(-endLength).join("")}" (shortened: ${chars.length} characters)`;
}

function shown(char: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces.
  if (/^[\u0000-\u001f\u007f-\u009f\u2028\u2029]$/.test(char)) return "?";
  if (char <= "\u007e") return char;
  return `\\u{${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}}`;
}
