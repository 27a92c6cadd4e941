import type { Address } from "viem";
import { inject } from "vitest";
import type { World } from "../startWorld";
import { claimPaymentLane, fundFromLane, laneWorld, type PaymentLane } from "./paymentLanes";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's local world (its chains, demo addresses and accounts), from sharedWorldSetup. */
    sharedWorld: Omit<World, "stop">;
    /** Where test files claim their payment lanes (one directory per lane taken). */
    paymentLaneDir: string;
  }
}

/**
 * The test run's one local world, for test files that read the chains. A file that pays takes
 * `sharedPaymentWorld()` instead; a file that changes what others read (the chains' processes,
 * mining, the faucet's or demo accounts' state) starts its own world with `startWorld()` and
 * says why.
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

export type SharedPaymentWorld = {
  /** The shared world with this file's payer, facilitator and payTo as its accounts. */
  world: World;
  lane: PaymentLane;
  /** Gives `to` USDC from this file's own funder (for extra payers the file makes). */
  fund(to: Address, usdc: bigint): Promise<void>;
};

/**
 * The shared world for a test file that pays: it claims a payment lane no other file of the run
 * has, so its balances, its facilitator's nonces and its records are its own.
 * @example const { world } = sharedPaymentWorld(); const stack = await startPaidStack({ world });
 */
export function sharedPaymentWorld(): SharedPaymentWorld {
  const world = sharedWorld();
  const lane = claimPaymentLane(inject("paymentLaneDir"));
  return {
    world: laneWorld(world, lane),
    lane,
    fund: (to, usdc) => fundFromLane(world, lane, to, usdc),
  };
}
