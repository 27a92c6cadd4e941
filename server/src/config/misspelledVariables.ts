import { facilitatorServiceVariables } from "../facilitatorService/startFacilitatorService";
import { configVariables } from "./loadConfig";
import { type UnknownSetting, unknownSettings } from "./unknownSettings";

/**
 * The environment's variables that look like a misspelled setting: read by nothing, so the setting
 * they were meant for keeps its default unless someone says so. One environment often serves the
 * API and `presend facilitator`, so neither's names count as a typo in the other.
 * @example misspelledVariables({ CHANELS: "off" })[0]?.described // "CHANELS (did you mean CHANNELS?)"
 */
export function misspelledVariables(env: Record<string, string | undefined>): UnknownSetting[] {
  const known = [...configVariables, ...facilitatorServiceVariables];
  return unknownSettings(Object.keys(env), known, "typos");
}
