import { describe, expect, it } from "vitest";
import { defaultWindowBlocks } from "./historyWindow";

describe("defaultWindowBlocks", () => {
  it("is about 180 days of each chain's blocks", () => {
    expect(defaultWindowBlocks("ethereum")).toBe(1_296_000);
    expect(defaultWindowBlocks("base")).toBe(7_776_000);
    expect(defaultWindowBlocks("arbitrum")).toBe(62_208_000);
  });
});
