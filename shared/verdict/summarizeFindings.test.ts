import { describe, expect, it } from "vitest";
import type { Level } from "../api/report";
import { type Finding, summarizeFindings } from "./summarizeFindings";

const finding = (code: string, level: Level): Finding => ({
  code,
  level,
  message: `${code} message`,
  headline: `${code} headline`,
  next: `${code} next`,
});

describe("summarizeFindings", () => {
  it.each([
    ["the single finding decides", [finding("active_wallet", "ok")], "ok", "active_wallet"],
    [
      "the highest level decides",
      [finding("fresh_address", "caution"), finding("unknown_contract", "warn")],
      "warn",
      "unknown_contract",
    ],
    [
      "priority breaks a tie, whatever the input order",
      [finding("checksum_missing", "caution"), finding("fresh_address", "caution")],
      "caution",
      "fresh_address",
    ],
    [
      "a stablecoin contract beats a token contract",
      [finding("token_contract", "danger"), finding("stablecoin_contract", "danger")],
      "danger",
      "stablecoin_contract",
    ],
    [
      "an unknown code sorts after known ones of its level",
      [finding("something_new", "caution"), finding("checksum_missing", "caution")],
      "caution",
      "checksum_missing",
    ],
    ["no finding at all is never ok", [], "caution", "unclassified"],
  ])("%s", (_, findings, level, decidingCode) => {
    const summary = summarizeFindings(findings);
    expect(summary.level).toBe(level);
    expect(summary.reasons[0]?.code).toBe(decidingCode);
    if (findings.length > 0) {
      expect(summary.headline).toBe(`${decidingCode} headline`);
      expect(summary.next).toBe(`${decidingCode} next`);
    }
  });

  it("lists reasons highest first, without headline and next", () => {
    const summary = summarizeFindings([
      finding("active_wallet", "ok"),
      { ...finding("checksum_missing", "caution"), chain: "base" },
    ]);
    expect(summary.reasons).toEqual([
      {
        code: "checksum_missing",
        level: "caution",
        message: "checksum_missing message",
        chain: "base",
      },
      { code: "active_wallet", level: "ok", message: "active_wallet message" },
    ]);
  });
});
