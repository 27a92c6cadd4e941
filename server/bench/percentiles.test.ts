import { describe, expect, it } from "vitest";
import { percentile, timeInterleaved } from "./percentiles";

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

describe("timeInterleaved", () => {
  it("runs one of each per round, each round starting one further along, and returns their samples by name after the warm-up rounds", async () => {
    const order: string[] = [];
    const samples = await timeInterleaved(
      {
        a: async (index) => {
          order.push(`a${index}`);
        },
        b: async (index) => {
          order.push(`b${index}`);
        },
      },
      { count: 2, warmup: 1 },
    );
    expect(order).toEqual(["a0", "b0", "b1", "a1", "a2", "b2"]);
    expect(samples.a).toHaveLength(2);
    expect(samples.b).toHaveLength(2);
  });
});
