import { authorizationTypes } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig, type PresendSigner } from "./createPresendConfig";
import { createMemoryPinStore } from "./PinStore";
import { baseUsdc } from "./policy/checkRequirement";

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
    const signer = await config.signer();
    expect(signer?.address).toBe(account.address);
    expect(await config.signer()).toBe(signer);
    expect(asked).toBe(2);
  });

  it("passes on only the typed data presend pays with, and no transaction signing", async () => {
    const asked: string[] = [];
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      signer: {
        ...account,
        signTypedData: (typedData) => {
          asked.push(typedData.primaryType);
          return account.signTypedData(typedData as never);
        },
      },
    });
    const signer = await config.signer();
    if (signer === null) throw new Error("a signer is configured");
    expect("signTransaction" in signer).toBe(false);
    const permit = {
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: baseUsdc },
      types: { Permit: [{ name: "owner", type: "address" }] },
      primaryType: "Permit",
      message: { owner: account.address },
    };
    await expect(signer.signTypedData(permit)).rejects.toThrow(/Permit/);
    const exact = {
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: baseUsdc },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: {
        from: account.address,
        to: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        value: 1n,
        validAfter: 0n,
        validBefore: 1n,
        nonce: `0x${"11".repeat(32)}`,
      },
    };
    await expect(signer.signTypedData(exact)).resolves.toMatch(/^0x/);
    expect(asked).toEqual(["TransferWithAuthorization"]);
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
