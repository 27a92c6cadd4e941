import { describe, expect, it } from "vitest";
import { createSendQuota } from "./createSendQuota";

describe("createSendQuota", () => {
  it("accepts reports of a page up to its quota exactly, then nothing", () => {
    const quota = createSendQuota(3);
    expect(quota.take("1 https://a.example", ["a", "b"])).toEqual(["a", "b"]);
    expect(quota.take("1 https://a.example", ["c", "d"])).toEqual(["c"]);
    expect(quota.take("1 https://a.example", ["e"])).toEqual([]);
  });

  it("counts each page on its own", () => {
    const quota = createSendQuota(1);
    expect(quota.take("1 https://a.example", ["a"])).toEqual(["a"]);
    expect(quota.take("2 https://a.example", ["b"])).toEqual(["b"]);
    expect(quota.take("1 https://b.example", ["c"])).toEqual(["c"]);
  });
});
