import { describe, expect, it } from "vitest";
import { levelRank } from "./levelRank";

describe("levelRank", () => {
  it.each([
    ["ok", 0],
    ["caution", 1],
    ["warn", 2],
    ["danger", 3],
  ] as const)("%s ranks %i", (level, rank) => {
    expect(levelRank(level)).toBe(rank);
  });
});
