import { describe, expect, it } from "vitest";
import { stableJson } from "./stableJson";

describe("stableJson", () => {
  it("sorts keys at every depth, keeps array order and drops undefined", () => {
    expect(stableJson({ b: [{ z: 1, a: 2 }], a: undefined, c: null })).toBe(
      '{\n  "b": [\n    {\n      "a": 2,\n      "z": 1\n    }\n  ],\n  "c": null\n}\n',
    );
    expect(stableJson({ x: 1, y: 2 })).toBe(stableJson({ y: 2, x: 1 }));
  });
});
