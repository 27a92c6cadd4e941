import { describe, expect, it } from "vitest";
import { percentile, timeRuns } from "./percentiles";

describe("percentile", () => {
  it.each([
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5],
    [[1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10],
    [[10, 1, 5], 50, 5],
    [[7], 99, 7],
  ])("%j p%d = %d", (values, p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it("is NaN for no samples", () => {
    expect(percentile([], 50)).toBeNaN();
  });
});

describe("timeRuns", () => {
  it("returns one sample per timed run, after the warm-up runs", async () => {
    let calls = 0;
    const samples = await timeRuns(
      async () => {
        calls++;
      },
      { count: 4, warmup: 2 },
    );
    expect(samples).toHaveLength(4);
    expect(calls).toBe(6);
  });
});
