/**
 * Joins names as a sentence does: "a", "a and b", "a, b and c" (or "a, b or c").
 * @example joinNames(["arbitrum", "optimism", "polygon"]) // "arbitrum, optimism and polygon"
 */
export function joinNames(names: readonly string[], conjunction: "and" | "or" = "and"): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} ${conjunction} ${names[names.length - 1]}`;
}
