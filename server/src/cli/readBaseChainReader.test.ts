import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { describe, expect, it } from "vitest";
import { readBaseChainReader } from "./readBaseChainReader";

describe("readBaseChainReader", () => {
  it("is null when PRESEND_BASE_RPC_URL is unset or empty: no endpoint is guessed", () => {
    expect(readBaseChainReader({})).toBeNull();
    expect(readBaseChainReader({ PRESEND_BASE_RPC_URL: "" })).toBeNull();
  });

  it("reads through an http(s) URL", () => {
    expect(readBaseChainReader({ PRESEND_BASE_RPC_URL: "https://mainnet.base.org" })).toEqual(
      expect.any(Function),
    );
  });

  it.each(["mainnet.base.org", "ws://127.0.0.1:8545", "file:///etc/passwd"])(
    "refuses %s by name",
    (value) => {
      expect(() => readBaseChainReader({ PRESEND_BASE_RPC_URL: value })).toThrow(
        ConfigurationError,
      );
      expect(() => readBaseChainReader({ PRESEND_BASE_RPC_URL: value })).toThrow(
        /PRESEND_BASE_RPC_URL/,
      );
    },
  );
});
