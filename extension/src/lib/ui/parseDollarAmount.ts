/**
 * A dollar amount as typed into a settings field, in USDC base units (6 decimals), or null when
 * it is not one. Cents after a point ("7.50"), or after a comma as much of the world writes them
 * ("7,50"; a comma with one or two digits after it is no thousands separator). "1,000" is
 * refused rather than guessed: a thousand dollars to some, one dollar to others.
 * @example parseDollarAmount("7,50") // 7500000
 */
export function parseDollarAmount(text: string): number | null {
  const typed = text.trim().replace(/^\$\s*/, "");
  const withPoint = /^\d+,\d{1,2}$/.test(typed) ? typed.replace(",", ".") : typed;
  if (!/^(?:\d+(?:\.\d*)?|\.\d+)$/.test(withPoint)) return null;
  return Math.round(Number(withPoint) * 1_000_000);
}
