import { describe, expect, it } from "vitest";
import { createPendingSpend } from "./createPendingSpend";

describe("createPendingSpend", () => {
  it("adds held amounts and releases each one once", () => {
    const pending = createPendingSpend();
    const first = pending.hold(10_000n);
    const second = pending.hold(50_000n);
    expect(pending.total()).toBe(60_000n);
    first();
    first();
    expect(pending.total()).toBe(50_000n);
    second();
    expect(pending.total()).toBe(0n);
  });
});
