import { describe, expect, it } from "vitest";
import { findSafeProxyVersion } from "./knownSafeProxies";

describe("findSafeProxyVersion", () => {
  it("names the Safe release of a proxy's code hash, in any case", () => {
    expect(
      findSafeProxyVersion("0xB89C1B3BDF2CF8827818646BCE9A8F6E372885F8C55E5C07ACBD307CB133B000"),
    ).toBe("1.3.0");
    expect(
      findSafeProxyVersion("0xd7d408ebcd99b2b70be43e20253d6d92a8ea8fab29bd3be7f55b10032331fb4c"),
    ).toBe("1.4.1");
  });

  it("is null for any other code", () => {
    // The empty code's hash: nothing at the address.
    expect(
      findSafeProxyVersion("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
    ).toBeNull();
  });
});
