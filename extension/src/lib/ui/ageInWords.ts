/**
 * A verdict's age in words: "just now", "4 min ago".
 * @example ageInWords("2025-06-01T12:00:00Z", Date.parse("2025-06-01T12:04:10Z")) // "4 min ago"
 */
export function ageInWords(checkedAt: string, now: number): string {
  const minutes = Math.floor((now - Date.parse(checkedAt)) / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
