import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { startWorld } from "../startWorld";
import { fundPaymentLanes } from "./paymentLanes";

/**
 * vitest `globalSetup`: one local world for the whole run, started before the first test file and
 * stopped after the last. Test files that read the chains take it with `sharedWorld()`; files that
 * pay take it with `sharedPaymentWorld()`, each on a payment lane of its own, funded here.
 */
export default async function sharedWorldSetup(project: TestProject): Promise<() => Promise<void>> {
  const { stop, ...world } = await startWorld();
  const laneDir = mkdtempSync(join(tmpdir(), "presend-lanes-"));
  try {
    await fundPaymentLanes(world);
  } catch (error) {
    await stop();
    throw error;
  }
  project.provide("sharedWorld", world);
  project.provide("paymentLaneDir", laneDir);
  return async () => {
    rmSync(laneDir, { recursive: true, force: true });
    await stop();
  };
}
