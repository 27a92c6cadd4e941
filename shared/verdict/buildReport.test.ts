import { describe, expect, it } from "vitest";
import { type Checksum, ReportSchema } from "../api/report";
import { buildReport } from "./buildReport";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const checkedAt = "2025-06-01T12:00:00.000Z";
const missing: Checksum = { status: "missing", message: "No checksum (all one case)." };

describe("buildReport", () => {
  it.each([
    ["a lowercase address", wallet.toLowerCase()],
    ["an uppercase address", `0x${wallet.slice(2).toUpperCase()}`],
    ["a wrongly checksummed address", "0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045"],
  ])("normalizes %s to EIP-55", (_, address) => {
    const report = buildReport({
      address,
      checksum: missing,
      target: readableFacts("base"),
      checkedAt,
    });
    expect(report.address).toBe(wallet);
  });

  it("produces a report the API schema accepts, with the facts and time it was given", () => {
    const target = readableFacts("base", { nonce: 4, usdc: "12.5" });
    const report = buildReport({ address: wallet, checksum: missing, target, checkedAt });
    expect(ReportSchema.parse(report)).toEqual(report);
    expect(report.chain).toBe(target);
    expect(report.checksum).toBe(missing);
    expect(report.checkedAt).toBe(checkedAt);
    expect(report.verdict.level).toBe("caution");
  });

  it.each([
    ["an active wallet", readableFacts("base", { nonce: 4 })],
    ["an unreadable chain", unreadableFacts("base", "all 3 endpoints failed")],
  ])("writes headline, next and every reason into the text for %s", (_, target) => {
    const report = buildReport({ address: wallet, checksum: missing, target, checkedAt });
    const text = report.report.replace(/\s+/g, " ");
    expect(text).toContain(report.verdict.headline);
    expect(text).toContain(report.verdict.next);
    for (const reason of report.verdict.reasons) expect(text).toContain(reason.message);
  });

  it("is pure: the same input gives the same report", () => {
    const input = { address: wallet, checksum: missing, target: readableFacts("base"), checkedAt };
    expect(buildReport(input)).toEqual(buildReport(input));
  });

  it("refuses a value that is not an address", () => {
    expect(() =>
      buildReport({
        address: "0x1234",
        checksum: missing,
        target: readableFacts("base"),
        checkedAt,
      }),
    ).toThrow();
  });
});
