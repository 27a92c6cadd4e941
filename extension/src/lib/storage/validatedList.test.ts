import { describe, expect, it } from "vitest";
import { z } from "zod";
import { slowStorageItem } from "./testing/slowStorageItem";
import { validatedList } from "./validatedList";

const Entry = z.object({ id: z.string(), paid: z.number().int().nonnegative() });
// What a build with another shape of entry might have left beside ours.
const foreign = { id: "from-another-build", paid: "10000", payer: "0xabc" };

describe("validatedList", () => {
  it("reads the entries that match and leaves out only the one that does not", async () => {
    const list = validatedList(
      slowStorageItem([{ id: "a", paid: 1 }, foreign, { id: "b", paid: 2 }]),
      Entry,
    );
    await expect(list.getValue()).resolves.toEqual([
      { id: "a", paid: 1 },
      { id: "b", paid: 2 },
    ]);
  });

  it("keeps an unreadable entry in storage through an update, after the readable ones", async () => {
    const storage = slowStorageItem([{ id: "a", paid: 1 }, foreign]);
    const list = validatedList(storage, Entry);
    const written = await list.update((entries) => [{ id: "new", paid: 3 }, ...entries]);
    expect(written).toEqual([
      { id: "new", paid: 3 },
      { id: "a", paid: 1 },
    ]);
    expect(storage.stored()).toEqual([{ id: "new", paid: 3 }, { id: "a", paid: 1 }, foreign]);
  });

  it("reads a stored value that is not a list as empty", async () => {
    await expect(validatedList(slowStorageItem({ id: "a" }), Entry).getValue()).resolves.toEqual(
      [],
    );
    await expect(validatedList(slowStorageItem(undefined), Entry).getValue()).resolves.toEqual([]);
  });

  it("refuses to write an entry that does not match, and writes nothing then", async () => {
    const storage = slowStorageItem([{ id: "a", paid: 1 }]);
    const list = validatedList(storage, Entry);
    await expect(list.update((entries) => [...entries, { id: "b", paid: -1 }])).rejects.toThrow();
    await expect(list.setValue([{ id: "c", paid: -1 }])).rejects.toThrow();
    expect(storage.stored()).toEqual([{ id: "a", paid: 1 }]);
  });

  it("replaces the whole list, unreadable entries included, on setValue (a reset on purpose)", async () => {
    const storage = slowStorageItem([foreign]);
    await validatedList(storage, Entry).setValue([]);
    expect(storage.stored()).toEqual([]);
  });

  it("loses no write when updates overlap, and goes on after one that failed", async () => {
    const storage = slowStorageItem([foreign]);
    const list = validatedList(storage, Entry);
    const add = (id: string, paid: number) => list.update((entries) => [...entries, { id, paid }]);
    const results = await Promise.allSettled([add("a", 1), add("bad", -1), add("b", 2)]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(storage.stored()).toEqual([{ id: "a", paid: 1 }, { id: "b", paid: 2 }, foreign]);
  });
});
