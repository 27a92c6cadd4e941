import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig, type PresendSigner } from "./createPresendConfig";
import { createMemoryPinStore } from "./PinStore";

const account = privateKeyToAccount(`0x${"22".repeat(32)}`);

describe("createPresendConfig", () => {
  it("keeps the URL's path without its trailing slash, pins per origin, never follows a redirect", async () => {
    const seen: Array<[string, RequestRedirect | undefined]> = [];
    const config = createPresendConfig({
      url: "https://api.presend.example/v1//",
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        seen.push([String(input), init?.redirect]);
        return new Response("{}");
      },
    });
    expect(config.base).toBe("https://api.presend.example/v1");
    expect(config.origin).toBe("https://api.presend.example");
    await config.send("/validate?address=x", { redirect: "follow" });
    await config.fetchNoRedirect("https://api.presend.example/v1/check");
    expect(seen).toEqual([
      ["https://api.presend.example/v1/validate?address=x", "manual"],
      ["https://api.presend.example/v1/check", "manual"],
    ]);
  });

  it("asks a signer function once, and again after it failed", async () => {
    let asked = 0;
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      signer: async (): Promise<PresendSigner> => {
        asked += 1;
        if (asked === 1) throw new Error("no wallet connected");
        return account;
      },
    });
    await expect(config.signer()).rejects.toThrow("no wallet connected");
    expect(await config.signer()).toBe(account);
    expect(await config.signer()).toBe(account);
    expect(asked).toBe(2);
  });

  it("has no signer and no channel payer when none is configured", () => {
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
    });
    expect(config.signer()).toBeNull();
    expect(config.channelPayer()).toBeNull();
  });
});
