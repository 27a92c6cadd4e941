import { type Level, levels } from "../api/report";

/**
 * Position of a level in the order ok < caution < warn < danger (0 to 3).
 * @example levelRank("warn") > levelRank("caution") // true
 */
export function levelRank(level: Level): number {
  return levels.indexOf(level);
}
