import { describe, expect, it } from "vitest";
import { formatUsdc } from "./formatUsdc";
import { routePrices } from "./routePrices";

describe("formatUsdc", () => {
  it("shows the route prices and a spend cap with their cents", () => {
    expect(formatUsdc(routePrices.check)).toBe("$0.01");
    expect(formatUsdc(routePrices.deep)).toBe("$0.05");
    // formatUnits gives "0.1" here, which reads as no price anyone writes.
    expect(formatUsdc(100_000n)).toBe("$0.10");
  });

  it("keeps sub-cent precision, whole dollars, strings and zero", () => {
    expect(formatUsdc("1234567")).toBe("$1.234567");
    expect(formatUsdc(1_000_000n)).toBe("$1.00");
    expect(formatUsdc(0n)).toBe("$0.00");
    expect(formatUsdc(-20_000n)).toBe("-$0.02");
  });
});
