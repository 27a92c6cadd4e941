import { describe, expect, it } from "vitest";
import { capStartsAgainAt } from "./capStartsAgainAt";

describe("capStartsAgainAt", () => {
  it("names the next midnight UTC as the person's own clock time and zone", () => {
    const day = "2026-11-29";
    expect(capStartsAgainAt(day, { locale: "en-US", timeZone: "Pacific/Kiritimati" })).toBe(
      "2:00 PM GMT+14 (midnight UTC)",
    );
    expect(capStartsAgainAt(day, { locale: "de-DE", timeZone: "Pacific/Kiritimati" })).toBe(
      "14:00 GMT+14 (midnight UTC)",
    );
    expect(capStartsAgainAt(day, { locale: "en-US", timeZone: "America/St_Johns" })).toBe(
      "8:30 PM GMT-3:30 (midnight UTC)",
    );
    // Summer time there: the same midnight UTC is an hour later on the clock.
    expect(capStartsAgainAt("2026-07-01", { locale: "de-DE", timeZone: "America/St_Johns" })).toBe(
      "21:30 GMT-2:30 (midnight UTC)",
    );
  });

  it("says midnight UTC alone where that is midnight on the person's clock too", () => {
    expect(capStartsAgainAt("2026-11-29", { locale: "en-US", timeZone: "UTC" })).toBe(
      "midnight UTC",
    );
    expect(capStartsAgainAt("2026-11-29", { locale: "de-DE", timeZone: "Europe/London" })).toBe(
      "midnight UTC",
    );
    // London in summer: 1 AM on the clock.
    expect(capStartsAgainAt("2026-07-01", { locale: "en-GB", timeZone: "Europe/London" })).toBe(
      "01:00 BST (midnight UTC)",
    );
  });
});
