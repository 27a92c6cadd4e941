import { describe, expect, it } from "vitest";
import { cachedProbe } from "./cachedProbe";

describe("cachedProbe", () => {
  it("answers 200 concurrent callers with one reading", async () => {
    let reads = 0;
    const probe = cachedProbe(async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return reads;
    }, 5_000);
    const answers = await Promise.all(Array.from({ length: 200 }, () => probe()));
    expect(reads).toBe(1);
    expect(new Set(answers)).toEqual(new Set([1]));
  });

  it("reads again once the reading is older than its ttl, and does not keep a failure", async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const probe = cachedProbe(
      async () => {
        reads++;
        if (fail) throw new Error("down");
        return reads;
      },
      1_000,
      () => now,
    );
    expect(await probe()).toBe(1);
    now = 999;
    expect(await probe()).toBe(1);
    now = 1_000;
    fail = true;
    await expect(probe()).rejects.toThrow("down");
    fail = false;
    expect(await probe()).toBe(3);
  });
});
