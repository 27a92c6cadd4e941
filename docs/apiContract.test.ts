import { readFileSync } from "node:fs";
import { errorCodes } from "@presend/shared/api/errors";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { describe, expect, it } from "vitest";

// docs/api.md is written by hand; the facts it repeats from the code are checked here, so the
// document cannot silently fall behind.
const api = readFileSync(new URL("./api.md", import.meta.url), "utf8");

describe("docs/api.md", () => {
  it.each(errorCodes)("documents the stable error code %s", (code) => {
    expect(api).toMatch(new RegExp(`\\|\\s*\\d{3}\\s*\\|\\s*\`${code}\``));
  });

  it("states the prices the server charges", () => {
    expect(api).toContain(`USD 0.01 (${routePrices.check} USDC units)`);
    expect(api).toContain(`USD 0.05 (${routePrices.deep} USDC units)`);
  });
});

// The README gives an overview of paying and links here; the contract is written once, in api.md.
describe("README.md's Paying for checks", () => {
  const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
  const start = readme.indexOf("## Paying for checks\n");
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));

  it("links to docs/api.md for the contract instead of repeating it", () => {
    expect(start).toBeGreaterThan(0);
    expect(section).toContain("](docs/api.md)");
    // The answers table, the report signature's signing input and the receipt formats live in api.md.
    expect(section).not.toMatch(/^\|\s*status\s*\|/m);
    expect(section).not.toContain('{"report": <the body>');
    expect(section).not.toContain("presend receipt <");
    for (const code of errorCodes) expect(section).not.toMatch(new RegExp(`\\|\\s*\`${code}\``));
  });
});
