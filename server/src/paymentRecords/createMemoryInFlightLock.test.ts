import { createMemoryInFlightLock } from "./createMemoryInFlightLock";
import { describeInFlightLock } from "./inFlightLockContract";

let now = 0;
describeInFlightLock("memory", async () => ({
  lock: createMemoryInFlightLock(() => now),
  advance: async (ms) => {
    now += ms;
  },
  close: async () => {},
}));
