/**
 * Joins names as a sentence does: "a", "a and b", "a, b and c".
 * @example joinNames(["arbitrum", "optimism", "polygon"]) // "arbitrum, optimism and polygon"
 */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? "";
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
