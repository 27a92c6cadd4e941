import { describe, expect, it } from "vitest";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { isPaidFor } from "./isPaidFor";

describe("isPaidFor", () => {
  it("is true after a verdict and after a payment that may have been charged, false otherwise", () => {
    const entry = exampleHistoryEntry({
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      checkedAt: new Date(),
    });
    expect(isPaidFor({ type: "report", entry })).toBe(true);
    expect(isPaidFor({ type: "failed", message: "", charged: "unknown" })).toBe(true);
    expect(isPaidFor({ type: "forged", message: "", charged: true })).toBe(true);
    expect(isPaidFor({ type: "failed", message: "", charged: false })).toBe(false);
    expect(isPaidFor({ type: "rejected", message: "" })).toBe(false);
    expect(isPaidFor({ type: "refused", code: "cap_reached", message: "" })).toBe(false);
    expect(isPaidFor(null)).toBe(false);
  });
});
