/**
 * The UTC calendar day of `date` (the daily cap resets at 00:00 UTC).
 * @example utcDay(new Date("2025-06-01T23:30:00Z")) // "2025-06-01"
 */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
