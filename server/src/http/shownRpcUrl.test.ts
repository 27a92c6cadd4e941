import { describe, expect, it } from "vitest";
import { shownRpcUrl } from "./shownRpcUrl";

describe("shownRpcUrl", () => {
  it("keeps a URL that carries nothing past its origin", () => {
    expect(shownRpcUrl("http://127.0.0.1:8545")).toBe("http://127.0.0.1:8545");
    expect(shownRpcUrl("https://mainnet.base.org/")).toBe("https://mainnet.base.org");
  });

  it("hides a key in the path, the query or the user info", () => {
    for (const keyed of [
      "https://base-mainnet.g.alchemy.com/v2/SECRET-KEY",
      "https://rpc.example/?apikey=SECRET-KEY",
      "https://user:SECRET-KEY@rpc.example",
      "https://rpc.example/#SECRET-KEY",
    ]) {
      const shown = shownRpcUrl(keyed);
      expect(shown).not.toContain("SECRET-KEY");
      expect(shown).toMatch(/^https:\/\/(base-mainnet\.g\.alchemy\.com|rpc\.example)\/\.\.\.$/);
    }
  });

  it("never echoes a value that is not a URL", () => {
    expect(shownRpcUrl("not a url SECRET-KEY")).toBe("(unparseable URL)");
  });
});
