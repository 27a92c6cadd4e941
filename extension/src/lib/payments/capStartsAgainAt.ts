/**
 * When the daily cap of UTC day `day` (utcDay) starts again, in the person's own terms: the next
 * midnight UTC as a clock time in their time zone, with the zone named, then "(midnight UTC)".
 * Midnight UTC is 2 PM in Kiritimati and 8:30 PM in St. John's, so "today" alone would mislead
 * them; where it is midnight on their clock too, "midnight UTC" says it all. `locale` and
 * `timeZone` default to the browser's.
 * @example capStartsAgainAt("2025-06-01", { locale: "en-US", timeZone: "Pacific/Kiritimati" }) // "2:00 PM GMT+14 (midnight UTC)"
 */
export function capStartsAgainAt(
  day: string,
  options: { locale?: string; timeZone?: string } = {},
): string {
  const next = new Date(`${day}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  // Midnight on the person's clock too (UTC itself, or London in winter): read on a 24-hour clock.
  const here = new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: options.timeZone,
  }).format(next);
  if (here === "00:00") return "midnight UTC";
  const clock = new Intl.DateTimeFormat(options.locale, {
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
    timeZone: options.timeZone,
  }).format(next);
  return `${clock} (midnight UTC)`;
}
