import { describe, expect, it } from "vitest";
import { priceInUsd } from "./priceInUsd";
import { routePrices } from "./routePrices";

describe("priceInUsd", () => {
  it("states the advertised prices: USD 0.01 for /check and USD 0.05 for /deep", () => {
    expect(routePrices).toEqual({ check: 10_000n, deep: 50_000n });
    expect(priceInUsd("check")).toBe("0.01");
    expect(priceInUsd("deep")).toBe("0.05");
  });
});
