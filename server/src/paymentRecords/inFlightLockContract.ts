import { describe, expect, it } from "vitest";
import type { InFlightLock } from "./inFlightLock";

/**
 * The behaviour every InFlightLock must have; an implementation's test calls this with a factory.
 * `advance` moves the implementation's clock (or waits) by the given milliseconds.
 * @example describeInFlightLock("memory", async () => ({ lock, advance, close }));
 */
export function describeInFlightLock(
  name: string,
  open: () => Promise<{
    lock: InFlightLock;
    advance: (ms: number) => Promise<void>;
    close: () => Promise<void>;
  }>,
): void {
  describe(`InFlightLock contract: ${name}`, () => {
    const withLock = async (run: (opened: Awaited<ReturnType<typeof open>>) => Promise<void>) => {
      const opened = await open();
      try {
        await run(opened);
      } finally {
        await opened.close();
      }
    };

    it("lets one holder in and refuses the second until release", () =>
      withLock(async ({ lock }) => {
        expect(await lock.tryAcquire("a", 10_000)).toBe(true);
        expect(await lock.tryAcquire("a", 10_000)).toBe(false);
        expect(await lock.tryAcquire("b", 10_000)).toBe(true);
        await lock.release("a");
        expect(await lock.tryAcquire("a", 10_000)).toBe(true);
      }));

    it("of many concurrent attempts on one key exactly one wins", () =>
      withLock(async ({ lock }) => {
        const wins = await Promise.all(
          Array.from({ length: 20 }, () => lock.tryAcquire("same", 10_000)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
      }));

    it("frees a lock whose holder never released it once its ttl has passed", () =>
      withLock(async ({ lock, advance }) => {
        expect(await lock.tryAcquire("dead", 200)).toBe(true);
        await advance(400);
        expect(await lock.tryAcquire("dead", 200)).toBe(true);
      }));

    it("a holder that renews keeps its lease past the first ttl; one that stops renewing loses it", () =>
      withLock(async ({ lock, advance }) => {
        expect(await lock.tryAcquire("leased", 300)).toBe(true);
        await advance(200);
        expect(await lock.renew("leased", 300)).toBe(true);
        await advance(200);
        // 400 ms after it was taken, still held: the renewal moved its expiry.
        expect(await lock.tryAcquire("leased", 300)).toBe(false);
        await advance(400);
        expect(await lock.renew("leased", 300)).toBe(false);
        expect(await lock.tryAcquire("leased", 300)).toBe(true);
      }));

    it("renewing a key nobody holds takes nothing", () =>
      withLock(async ({ lock }) => {
        expect(await lock.renew("free", 1_000)).toBe(false);
        expect(await lock.tryAcquire("free", 1_000)).toBe(true);
      }));

    it("releasing a key nobody holds does nothing", () =>
      withLock(async ({ lock }) => {
        await lock.release("never");
        expect(await lock.tryAcquire("never", 1_000)).toBe(true);
      }));
  });
}
