import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { describe, expect, it } from "vitest";
import { readSpendCap } from "./readSpendCap";

describe("readSpendCap", () => {
  it("reads USD into USDC base units, 0.10 when unset or empty", () => {
    expect(readSpendCap({ PRESEND_SPEND_CAP: "0.25" })).toBe(250_000n);
    expect(readSpendCap({})).toBe(100_000n);
    expect(readSpendCap({ PRESEND_SPEND_CAP: "" })).toBe(100_000n);
  });

  it.each(["ten", "0.1234567", "-1", "$1"])("refuses %s by name", (value) => {
    expect(() => readSpendCap({ PRESEND_SPEND_CAP: value })).toThrow(ConfigurationError);
    expect(() => readSpendCap({ PRESEND_SPEND_CAP: value })).toThrow(/PRESEND_SPEND_CAP/);
  });
});
