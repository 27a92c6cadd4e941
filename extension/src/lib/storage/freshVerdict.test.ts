import { describe, expect, it } from "vitest";
import { exampleHistoryEntry } from "./exampleHistoryEntry";
import { freshVerdict, verdictFreshMs } from "./freshVerdict";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = Date.parse("2025-06-01T12:00:00Z");
const checked = (minutesAgo: number, id: string) => ({
  ...exampleHistoryEntry({ address, checkedAt: new Date(now - minutesAgo * 60_000) }),
  id,
});

describe("freshVerdict", () => {
  it("finds the newest verdict for the address and chain within ten minutes, in any case", () => {
    const history = [checked(9, "older"), checked(2, "newer"), checked(30, "stale")];
    expect(freshVerdict(history, address.toLowerCase(), "base", now)?.id).toBe("newer");
  });

  it("is null for another chain, another address, an old verdict or one from the future", () => {
    expect(freshVerdict([checked(2, "a")], address, "arbitrum", now)).toBeNull();
    expect(freshVerdict([checked(2, "a")], `${address.slice(0, -1)}7`, "base", now)).toBeNull();
    expect(
      freshVerdict([checked(verdictFreshMs / 60_000 + 1, "a")], address, "base", now),
    ).toBeNull();
    expect(freshVerdict([checked(-5, "a")], address, "base", now)).toBeNull();
  });
});
