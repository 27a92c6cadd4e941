import { describe, expect, it } from "vitest";
import { createMemoryChannelSaltStore } from "./channelSaltStore";

describe("createMemoryChannelSaltStore", () => {
  it("holds no salt until one is written, then the last one written", async () => {
    const store = createMemoryChannelSaltStore();
    expect(await store.read()).toBeNull();
    await store.write(`0x${"01".repeat(32)}`);
    await store.write(`0x${"02".repeat(32)}`);
    expect(await store.read()).toBe(`0x${"02".repeat(32)}`);
  });

  it("each store is its own: two clients never share a channel's salt by accident", async () => {
    const one = createMemoryChannelSaltStore();
    await one.write(`0x${"03".repeat(32)}`);
    expect(await createMemoryChannelSaltStore().read()).toBeNull();
  });
});
