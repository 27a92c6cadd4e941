import { chainNames } from "@presend/shared/chains/chains";
import { viemChains } from "@presend/shared/chains/viemChains";
import { describe, expect, it } from "vitest";
import { defaultRpcUrls } from "./defaultRpcUrls";

describe("defaultRpcUrls", () => {
  it.each(chainNames)("lists several distinct https endpoints for %s, viem's first", (name) => {
    const urls = defaultRpcUrls[name];
    expect(urls[0]).toBe(viemChains[name].rpcUrls.default.http[0]);
    expect(urls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(urls.map((url) => new URL(url).host)).size).toBe(urls.length);
    for (const url of urls) expect(new URL(url).protocol).toBe("https:");
  });
});
