import { describe, expect, it } from "vitest";
import { createMemoryInFlightLock } from "./createMemoryInFlightLock";
import { holdLease } from "./holdLease";
import type { InFlightLock } from "./inFlightLock";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("holdLease", () => {
  it("keeps the lock past its ttl while held, and frees it on release", async () => {
    const lock = createMemoryInFlightLock();
    const lease = await holdLease(lock, "k", 150);
    expect(lease).not.toBeNull();
    await wait(400);
    expect(await lock.tryAcquire("k", 150)).toBe(false);
    await lease?.release();
    expect(await lock.tryAcquire("k", 150)).toBe(true);
  });

  it("is null while another holder has the key", async () => {
    const lock = createMemoryInFlightLock();
    expect(await lock.tryAcquire("k", 10_000)).toBe(true);
    expect(await holdLease(lock, "k", 150)).toBeNull();
  });

  it("rejects when the store cannot be asked, and a release that fails does not throw", async () => {
    const down: InFlightLock = {
      tryAcquire: () => Promise.reject(new Error("connection refused")),
      renew: () => Promise.reject(new Error("connection refused")),
      release: () => Promise.reject(new Error("connection refused")),
    };
    await expect(holdLease(down, "k", 150)).rejects.toThrow("connection refused");
    const errors: unknown[] = [];
    const flaky: InFlightLock = { ...down, tryAcquire: async () => true };
    const lease = await holdLease(flaky, "k", 150, (error) => errors.push(error));
    await wait(120);
    await expect(lease?.release()).resolves.toBeUndefined();
    // One failed renewal (at 50 ms and 100 ms) and the failed release, all reported, none thrown.
    expect(errors.length).toBeGreaterThanOrEqual(2);
  });
});
