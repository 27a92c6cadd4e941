import { routePrices } from "@presend/shared/pricing/routePrices";
import { describe, expect, it } from "vitest";
import { formatUsdc } from "./prices";

describe("formatUsdc", () => {
  it("shows the route prices as the badge labels them", () => {
    expect(formatUsdc(routePrices.check)).toBe("$0.01");
    expect(formatUsdc(routePrices.deep)).toBe("$0.05");
  });

  it("keeps sub-cent precision and whole dollars", () => {
    expect(formatUsdc("1234567")).toBe("$1.234567");
    expect(formatUsdc(1_000_000n)).toBe("$1.00");
    expect(formatUsdc(0n)).toBe("$0.00");
  });
});
