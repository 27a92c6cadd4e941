import { describe, expect, it } from "vitest";
import { defaultApiUrl } from "../storage/defaultApiUrl";
import { apiOriginOf } from "./useApiOrigin";

describe("apiOriginOf", () => {
  it("is the origin of the settings' API, path and trailing slash dropped", () => {
    expect(apiOriginOf({ apiUrl: "https://api.presend.test/v1/" })).toBe(
      "https://api.presend.test",
    );
  });

  it("is the build's default API for settings never saved or damaged", () => {
    const fallback = new URL(defaultApiUrl).origin;
    for (const stored of [undefined, null, {}, { apiUrl: 42 }, { apiUrl: "not a url" }]) {
      expect(apiOriginOf(stored)).toBe(fallback);
    }
  });
});
