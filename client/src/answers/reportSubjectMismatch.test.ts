import { describe, expect, it } from "vitest";
import { exampleReport } from "../exampleReport";
import { reportSubjectMismatch } from "./reportSubjectMismatch";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const sender = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const report = exampleReport({ address, checkedAt: new Date("2025-06-01T12:00:00Z") });

describe("reportSubjectMismatch", () => {
  it("takes the report of the address, chain and sender asked, the address in any case", () => {
    expect(reportSubjectMismatch(report, { address, chain: "base" })).toBeNull();
    expect(
      reportSubjectMismatch(report, { address: ` ${address.toLowerCase()} `, chain: "base" }),
    ).toBeNull();
    expect(
      reportSubjectMismatch(
        { ...report, from: sender },
        { address, chain: "base", from: sender.toLowerCase() },
      ),
    ).toBeNull();
  });

  it("names another address, another chain, and a sender missing, added or changed", () => {
    expect(reportSubjectMismatch(report, { address: sender, chain: "base" })).toMatch(
      /about 0xd8dA.*, not the address asked \(0x7099/,
    );
    expect(reportSubjectMismatch(report, { address, chain: "polygon" })).toMatch(
      /about base, not the chain asked \(polygon\)/,
    );
    expect(reportSubjectMismatch(report, { address, chain: "base", from: sender })).toMatch(
      /sender none, not the one asked \(0x7099/,
    );
    expect(reportSubjectMismatch({ ...report, from: sender }, { address, chain: "base" })).toMatch(
      /sender 0x7099.*, not the one asked \(none\)/,
    );
    expect(
      reportSubjectMismatch({ ...report, from: address }, { address, chain: "base", from: sender }),
    ).toMatch(/not the one asked/);
  });
});
