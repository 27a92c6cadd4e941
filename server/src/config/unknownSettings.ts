import { closest, distance } from "fastest-levenshtein";

/** A name that is not a setting, and the setting it is nearest to when it looks like a typo of it. */
export type UnknownSetting = {
  name: string;
  nearest: string | null;
  /** For the operator: "CHANELS (did you mean CHANNELS?)". */
  described: string;
};

// Shaped like a setting (upper case, digits, underscores) and long enough that one or two letters
// off a real one is a typo, not another program's variable (PATH is not a misspelled PORT).
const settingShape = /^[A-Z][A-Z0-9_]{4,}$/;

/**
 * The setting `name` is one or two letters off (CHANELS for CHANNELS, PAYTO for PAY_TO), or null.
 * Two only for long names, where two slips still leave the name plain to see.
 */
function nearestSetting(name: string, known: readonly string[]): string | null {
  if (known.length === 0) return null;
  const nearest = closest(name, [...known]);
  const slips = distance(name, nearest);
  return slips > 0 && slips <= (name.length >= 10 ? 2 : 1) ? nearest : null;
}

/**
 * The names that are not settings presend reads. A name read by nothing leaves the setting it was
 * meant for at its default in silence (CHANELS=off leaves channels on).
 * - "all": every unknown name, each with its nearest setting if it looks like a typo: a settings
 *   file's keys are all meant for presend.
 * - "typos": only names shaped like a setting and a letter or two off one: the environment also
 *   holds every other program's variables, which are none of presend's business.
 * @example unknownSettings(["PORT", "CHANELS"], ["PORT", "CHANNELS"], "all")[0]?.described // "CHANELS (did you mean CHANNELS?)"
 */
export function unknownSettings(
  names: readonly string[],
  known: readonly string[],
  which: "all" | "typos",
): UnknownSetting[] {
  const knownNames = new Set(known);
  return names
    .filter((name) => !knownNames.has(name))
    .filter((name) => which === "all" || settingShape.test(name))
    .map((name) => {
      const nearest = nearestSetting(name, known);
      return { name, nearest, described: nearest ? `${name} (did you mean ${nearest}?)` : name };
    })
    .filter((setting) => which === "all" || setting.nearest !== null);
}
