import { describe, expect, it, vi } from "vitest";
import { createLazyRuntime } from "./createLazyRuntime";

describe("createLazyRuntime", () => {
  it("loads once, on the first need, however many ask", async () => {
    const load = vi.fn(async () => ({ started: true }));
    const runtime = createLazyRuntime(load);
    expect(load).not.toHaveBeenCalled();
    expect(runtime.current()).toBeNull();
    const [a, b] = await Promise.all([runtime.get(), runtime.get()]);
    expect(a).toBe(b);
    expect(runtime.current()).toBe(a);
    await runtime.get();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("asks again after a failed load", async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error("navigated"))
      .mockResolvedValueOnce("runtime");
    const runtime = createLazyRuntime(load);
    await expect(runtime.get()).rejects.toThrow("navigated");
    expect(runtime.current()).toBeNull();
    await expect(runtime.get()).resolves.toBe("runtime");
    expect(load).toHaveBeenCalledTimes(2);
  });
});
