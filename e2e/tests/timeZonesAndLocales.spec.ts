import { test as base, expect } from "@playwright/test";
import { utcDay } from "@presend/extension/payments/utcDay";
import { extensionDir } from "../extensionDir";
import { launchChromiumWithExtension } from "../fixtures/launchChromium";
import { getExtensionStorage, setExtensionStorage } from "../helpers/extensionStorage";
import { screenshot } from "../helpers/screenshot";
import { expectSpentToday } from "../helpers/spentToday";

// People far from UTC and en-US: the daily cap counts UTC days, whose midnight is 2 PM in
// Kiritimati (UTC+14) and 8:30 PM in St. John's (UTC-3:30), so the options page says when the
// cap starts again on their own clock; and a cap typed with a decimal comma, as German and Hindi
// number settings write it, is read as the amount it is. Each browser here runs in that zone and
// language (its extension's background too), apart from the suite's own.

const people = [
  {
    timezone: "Pacific/Kiritimati",
    locale: "de-DE",
    startsAgain: /^The cap starts again at 14:00 GMT\+14 \(midnight UTC\)\.$/,
  },
  {
    timezone: "America/St_Johns",
    locale: "hi-IN",
    // Newfoundland keeps summer time: UTC-2:30 then.
    startsAgain: /^The cap starts again at (8:30 pm GMT-3:30|9:30 pm GMT-2:30) \(midnight UTC\)\.$/,
  },
];

for (const person of people) {
  base(
    `${person.timezone}, ${person.locale}: today's spending is the UTC day's, the cap's restart is told in local time, and "7,50" is $7.50`,
    async () => {
      const browser = await launchChromiumWithExtension(extensionDir, person);
      try {
        const { context, extensionId, serviceWorker } = browser;
        // Spent on the UTC day under way, whichever local date it is in this zone.
        await setExtensionStorage(serviceWorker, {
          spendLedger: { day: utcDay(new Date()), spentUnits: 250_000 },
        });
        const options = await context.newPage();
        await options.goto(`chrome-extension://${extensionId}/options.html`);
        await expectSpentToday(options, "$0.25 of $1.00 spent today (UTC). $0.75 left.");
        await expect(options.getByTestId("cap-starts-again")).toHaveText(person.startsAgain);
        const cap = options.locator("input[name=cap]");
        await expect(cap).toHaveValue("1.00");
        await cap.fill("7,50");
        await options.getByRole("button", { name: "Save" }).click();
        await expect(options.getByTestId("saved")).toBeVisible();
        expect(await getExtensionStorage(serviceWorker, "settings")).toMatchObject({
          dailyCapUnits: 7_500_000,
        });
        await expectSpentToday(options, "$0.25 of $7.50 spent today (UTC). $7.25 left.");
        await expect(cap).toHaveValue("7.50");
        // A comma that may group thousands is not guessed at.
        await cap.fill("1,000");
        await options.getByRole("button", { name: "Save" }).click();
        await expect(cap).toHaveAccessibleDescription(
          "The cap must be a dollar amount, like 5, 7.50 or 7,50, with no thousands separator.",
        );
        await expect(options.getByTestId("saved")).toBeHidden();
        await screenshot(options, `options-${person.timezone.replace("/", "-")}-${person.locale}`);
      } finally {
        await browser.close();
      }
    },
  );
}
