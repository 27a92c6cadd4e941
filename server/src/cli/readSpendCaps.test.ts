import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { describe, expect, it } from "vitest";
import { readSpendCaps } from "./readSpendCaps";

describe("readSpendCaps", () => {
  it("reads USD into USDC base units: 0.10 a session and 1.00 a day when unset or empty", () => {
    expect(readSpendCaps({ PRESEND_SPEND_CAP: "0.25", PRESEND_DAILY_CAP: "3" })).toEqual({
      session: 250_000n,
      daily: 3_000_000n,
      maxDeposit: 250_000n,
    });
    const defaults = { session: 100_000n, daily: 1_000_000n, maxDeposit: 100_000n };
    expect(readSpendCaps({})).toEqual(defaults);
    expect(readSpendCaps({ PRESEND_SPEND_CAP: "", PRESEND_DAILY_CAP: "" })).toEqual(defaults);
  });

  it.each(["PRESEND_SPEND_CAP", "PRESEND_DAILY_CAP"])("refuses a malformed %s by name", (name) => {
    for (const value of ["ten", "0.1234567", "-1", "$1"]) {
      expect(() => readSpendCaps({ [name]: value })).toThrow(ConfigurationError);
      expect(() => readSpendCaps({ [name]: value })).toThrow(new RegExp(name));
    }
  });

  it("lets one deposit be no larger than either cap", () => {
    expect(readSpendCaps({ PRESEND_SPEND_CAP: "5" }).maxDeposit).toBe(1_000_000n);
    expect(readSpendCaps({ PRESEND_DAILY_CAP: "0.05" }).maxDeposit).toBe(50_000n);
  });
});
