import { describe, expect, it } from "vitest";
import { z } from "zod";
import { slowStorageItem } from "./testing/slowStorageItem";
import { StoredValueInvalidError, validatedItem } from "./validatedItem";

const Counter = z.object({ n: z.number().int().nonnegative() });

describe("validatedItem", () => {
  it("reads an invalid stored value as the fallback", async () => {
    const item = validatedItem(slowStorageItem({ n: "two" }), Counter, { n: 0 });
    await expect(item.getValue()).resolves.toEqual({ n: 0 });
  });

  it("throws on an invalid stored value when told to, for reads and updates", async () => {
    const item = validatedItem(
      slowStorageItem({ n: -1 }),
      Counter,
      { n: 0 },
      { onInvalid: "throw" },
    );
    await expect(item.getValue()).rejects.toBeInstanceOf(StoredValueInvalidError);
    await expect(item.update(({ n }) => ({ n: n + 1 }))).rejects.toBeInstanceOf(
      StoredValueInvalidError,
    );
  });

  it("refuses to write a value that does not match the schema", async () => {
    const storage = slowStorageItem({ n: 1 });
    const item = validatedItem(storage, Counter, { n: 0 });
    await expect(item.setValue({ n: -5 })).rejects.toThrow();
    expect(storage.stored()).toEqual({ n: 1 });
  });

  it("loses no write when updates overlap (each one sees the one before)", async () => {
    const storage = slowStorageItem({ n: 0 });
    const item = validatedItem(storage, Counter, { n: 0 });
    const add = () => item.update(({ n }) => ({ n: n + 1 }));
    const results = await Promise.all([add(), add(), add()]);
    expect(results).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(storage.stored()).toEqual({ n: 3 });
  });

  it("goes on with the next update after one that failed", async () => {
    const storage = slowStorageItem({ n: 0 });
    const item = validatedItem(storage, Counter, { n: 0 });
    const failed = item.update(() => ({ n: -1 }));
    const next = item.update(({ n }) => ({ n: n + 1 }));
    await expect(failed).rejects.toThrow();
    await expect(next).resolves.toEqual({ n: 1 });
  });
});
