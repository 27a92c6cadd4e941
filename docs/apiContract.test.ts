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
