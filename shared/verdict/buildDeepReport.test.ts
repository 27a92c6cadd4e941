import { describe, expect, it } from "vitest";
import { type Checksum, DeepReportSchema } from "../api/report";
import { chainNames } from "../chains/chains";
import { buildDeepReport } from "./buildDeepReport";
import { readableFacts, unreadableFacts } from "./chainFacts.test-helpers";

const wallet = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const checkedAt = "2025-06-01T12:00:00.000Z";
const valid: Checksum = { status: "valid", message: "Address checksum is correct." };

const others = [
  readableFacts("ethereum"),
  readableFacts("arbitrum", { kind: "safe", nonce: 1, usdc: "40" }),
  unreadableFacts("optimism", "timeout"),
  readableFacts("polygon", { bridged: "2" }),
];

describe("buildDeepReport", () => {
  const report = buildDeepReport({
    address: wallet.toLowerCase(),
    checksum: valid,
    target: readableFacts("base"),
    others,
    checkedAt,
  });

  it("produces a deep report the API schema accepts", () => {
    expect(DeepReportSchema.parse(report)).toEqual(report);
    expect(report.address).toBe(wallet);
    expect(report.others).toEqual(others);
    expect(report.verdict.level).toBe("warn");
    expect(report.verdict.wrongNetwork).toEqual({
      flagged: true,
      activeOn: ["arbitrum", "polygon"],
    });
  });

  it("writes headline, next, every reason and every token mismatch into the text", () => {
    const text = report.report.replace(/\s+/g, " ");
    expect(text).toContain(report.verdict.headline);
    expect(text).toContain(report.verdict.next);
    for (const reason of report.verdict.reasons) expect(text).toContain(reason.message);
    for (const mismatch of report.verdict.tokenMismatch) expect(text).toContain(mismatch.message);
  });

  it("lists every chain in the per-chain table", () => {
    const table = report.report.slice(report.report.indexOf("All chains"));
    for (const name of chainNames) expect(table).toMatch(new RegExp(`^ {2}${name} `, "m"));
  });

  it("leaves a duplicate of the target out of the others", () => {
    const deep = buildDeepReport({
      address: wallet,
      checksum: valid,
      target: readableFacts("base"),
      others: [readableFacts("base", { nonce: 3 }), ...others],
      checkedAt,
    });
    expect(deep.others.map((facts) => facts.name)).toEqual([
      "ethereum",
      "arbitrum",
      "optimism",
      "polygon",
    ]);
  });
});
