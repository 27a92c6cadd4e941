import type { DemoAddress, World } from "@presend/devnet";
import type { Address } from "viem";

/** A demo address of the running world by its label (the README's table). */
export function demoAddress(world: World, label: string): DemoAddress & { address: Address } {
  const found = world.demo.find((demo) => demo.label === label);
  if (!found) throw new Error(`No demo address labelled ${label}.`);
  return found;
}

/** The demo world's active EOA on base (verdict ok): the address most paid checks pay for. */
export function activeEoa(world: World): Address {
  return demoAddress(world, "active-eoa-on-base").address;
}
