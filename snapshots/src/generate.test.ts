import { describe, expect, it } from "vitest";
import { parseGenerateArgs } from "./generate";

describe("parseGenerateArgs", () => {
  it("reads a kind, --as-of and --fixtures", () => {
    expect(
      parseGenerateArgs(["landscape", "--as-of", "2026-11-21", "--fixtures", "snapshots/fixtures"]),
    ).toMatchObject({
      kind: "landscape",
      asOf: "2026-11-21",
      fixtures: "snapshots/fixtures",
      live: false,
    });
    expect(parseGenerateArgs(["all", "--live"])).toMatchObject({ kind: "all", live: true });
  });

  it.each([
    [["everything", "--live"], /kind/],
    [["all"], /exactly one of --live and --fixtures/],
    [["all", "--live", "--fixtures", "x"], /exactly one/],
    [["all", "--live", "--as-of", "21/11/2026"], /asOf/],
  ])("refuses %j", (argv, message) => {
    expect(() => parseGenerateArgs(argv)).toThrow(message);
  });
});
