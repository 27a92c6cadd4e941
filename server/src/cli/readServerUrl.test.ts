import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { describe, expect, it } from "vitest";
import { defaultServerUrl, readServerUrl } from "./readServerUrl";

describe("readServerUrl", () => {
  it("reads an http(s) URL without trailing slashes, the local API when unset or empty", () => {
    expect(readServerUrl({ PRESEND_URL: "https://presend.example/" })).toBe(
      "https://presend.example",
    );
    expect(readServerUrl({ PRESEND_URL: "http://127.0.0.1:44013" })).toBe("http://127.0.0.1:44013");
    expect(readServerUrl({})).toBe(defaultServerUrl);
    expect(readServerUrl({ PRESEND_URL: "" })).toBe(defaultServerUrl);
  });

  it.each(["not-a-url", "127.0.0.1:8402", "ftp://presend.example", "file:///etc/passwd"])(
    "refuses %s by name",
    (value) => {
      expect(() => readServerUrl({ PRESEND_URL: value })).toThrow(ConfigurationError);
      expect(() => readServerUrl({ PRESEND_URL: value })).toThrow(/PRESEND_URL/);
    },
  );
});
