import { inject } from "vitest";
import type { World } from "../startWorld";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's local world (its chains, demo addresses and accounts), from sharedWorldSetup. */
    sharedWorld: Omit<World, "stop">;
  }
}

/**
 * The test run's one local world, for test files that read the chains or use accounts no other
 * file uses. A file that changes what others read (balances of the shared accounts, chain
 * state, the chains' processes) starts its own world with `startWorld()` and says why.
 * @example const stack = await startPaidStack({ world: sharedWorld() });
 */
export function sharedWorld(): World {
  return {
    ...inject("sharedWorld"),
    stop: () =>
      Promise.reject(
        new Error("the shared world belongs to the test run; stop a world you started"),
      ),
  };
}
