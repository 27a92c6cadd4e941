import { describe, expect, it } from "vitest";
import { misspelledVariables } from "./misspelledVariables";

describe("misspelledVariables", () => {
  it("takes the API's and presend facilitator's settings as known, and names a typo of either", () => {
    const env = {
      CHANNELS: "off",
      FACILITATOR_JOURNAL_FILE: "/var/lib/presend/journal",
      FACILITATOR_JOURNAL_FIL: "/var/lib/presend/journal",
      CHANELS: "off",
      PATH: "/usr/bin",
    };
    expect(misspelledVariables(env).map((typo) => typo.described)).toEqual([
      "FACILITATOR_JOURNAL_FIL (did you mean FACILITATOR_JOURNAL_FILE?)",
      "CHANELS (did you mean CHANNELS?)",
    ]);
  });
});
