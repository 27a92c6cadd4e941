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

  it.each([
    "not-a-url",
    "127.0.0.1:8402",
    "ftp://presend.example",
    "file:///etc/passwd",
    // Never sendable (fetch refuses credentials in a URL) or not a base routes can follow.
    "https://user:secret@presend.example",
    "https://token@presend.example",
    "https://presend.example/?key=secret",
    "https://presend.example/#top",
  ])("refuses %s by name", (value) => {
    expect(() => readServerUrl({ PRESEND_URL: value })).toThrow(ConfigurationError);
    expect(() => readServerUrl({ PRESEND_URL: value })).toThrow(/PRESEND_URL/);
    // The setting may carry a secret: the message never repeats it.
    expect(() => readServerUrl({ PRESEND_URL: value })).not.toThrow(/secret/);
  });
});
