import { describe, expect, it } from "vitest";
import { createMemoryChannelLock } from "./channelLock";

describe("createMemoryChannelLock", () => {
  it("runs held work one at a time, in the order asked, past a holder that failed", async () => {
    const lock = createMemoryChannelLock();
    const log: string[] = [];
    let releaseFirst = () => {};
    const first = lock.hold(async () => {
      log.push("first in");
      await new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      log.push("first out");
      throw new Error("first failed");
    });
    const second = lock.hold(async () => {
      log.push("second");
      return 2;
    });
    // The second waits for the first, however long it holds.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(["first in"]);
    releaseFirst();
    await expect(first).rejects.toThrow("first failed");
    expect(await second).toBe(2);
    expect(log).toEqual(["first in", "first out", "second"]);
  });
});
