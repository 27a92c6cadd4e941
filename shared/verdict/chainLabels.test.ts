import { describe, expect, it } from "vitest";
import { chainLabels } from "./chainLabels";

describe("chainLabels", () => {
  it("names chains by their display names, joined as a sentence does", () => {
    expect(chainLabels(["base"])).toBe("Base");
    expect(chainLabels(["arbitrum", "optimism", "polygon"])).toBe(
      "Arbitrum One, OP Mainnet and Polygon PoS",
    );
    expect(chainLabels(["ethereum", "base"], "or")).toBe("Ethereum or Base");
    expect(chainLabels([])).toBe("");
  });
});
