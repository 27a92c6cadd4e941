import { describe, expect, it } from "vitest";
import { readableFacts } from "./chainFacts.test-helpers";
import { isSafeLookalike } from "./isSafeLookalike";

describe("isSafeLookalike", () => {
  const safe = readableFacts("ethereum", { kind: "safe", nonce: 1 });
  const withProxy = (proxyVersion: string | null | undefined) => ({
    ...safe,
    safe: { owners: 2, threshold: 1, ...(proxyVersion !== undefined && { proxyVersion }) },
  });

  it("is a Safe whose code is no Safe proxy", () => {
    expect(isSafeLookalike(withProxy(null))).toBe(true);
  });

  it("is not a Safe proxy of a known release, facts that never read the code, or another kind", () => {
    expect(isSafeLookalike(withProxy("1.4.1"))).toBe(false);
    expect(isSafeLookalike(withProxy(undefined))).toBe(false);
    expect(isSafeLookalike(readableFacts("ethereum", { kind: "contract" }))).toBe(false);
  });
});
