import type { TestProject } from "vitest/node";
import { startWorld } from "../startWorld";

/**
 * vitest `globalSetup`: one local world for the whole run, started before the first test file and
 * stopped after the last. Test files that only read the chains take it with `sharedWorld()`
 * instead of starting five anvils each.
 */
export default async function sharedWorldSetup(project: TestProject): Promise<() => Promise<void>> {
  const { stop, ...world } = await startWorld();
  project.provide("sharedWorld", world);
  return stop;
}
