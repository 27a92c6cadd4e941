import { expect, test } from "../fixtures/test";
import { waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { recordMetric, summarize } from "../metrics";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

// The content script records presend:entry (the paste event) and presend:chip (the chip in the
// DOM) as performance marks of the page; the measure between them is the latency. It is printed
// and recorded for the closing figures, not asserted: timings on a shared machine vary.
test("paste to chip is measured (performance marks, p50 of 9)", async ({ dapp }) => {
  const samples: number[] = [];
  for (let i = 0; i < 9; i++) {
    const value = i % 2 === 0 ? address : address.toLowerCase();
    await dapp.locator(dappFields.input).fill("");
    await dapp.evaluate(() => performance.clearMeasures("presend:paste-to-chip"));
    await pasteInto(dapp, dappFields.input, value);
    await waitForBadge(dapp, (b) => b.visible && b.status === (i % 2 === 0 ? "valid" : "missing"));
    const duration = await dapp.evaluate(
      () => performance.getEntriesByName("presend:paste-to-chip", "measure").at(-1)?.duration ?? -1,
    );
    samples.push(duration);
  }
  const summary = summarize(samples);
  recordMetric("pasteToChip", summary);
  console.log(`paste-to-chip: ${JSON.stringify(summary)}`);
  // Every paste produced its measure (a missing one reads -1).
  expect(summary.minMs).toBeGreaterThanOrEqual(0);
});
