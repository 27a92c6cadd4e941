import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendClient } from "./createPresendClient";
import { createMemoryPinStore } from "./PinStore";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const payerKey = `0x${"11".repeat(32)}` as const;

// The client composes the actions over one config: each method reaches its own route, and none
// follows a redirect. What each action decides is tested beside it (actions/).
describe("createPresendClient", () => {
  it("binds each method to its action and route", async () => {
    const requests: Array<{ method: string; url: string; redirect: RequestRedirect | undefined }> =
      [];
    const client = createPresendClient({
      url: "http://api.test/",
      signer: privateKeyToAccount(payerKey),
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        requests.push({
          method: init?.method ?? "GET",
          url: String(input),
          redirect: init?.redirect,
        });
        return new Response(
          JSON.stringify({ error: { code: "rate_limited", message: "Slow down." } }),
          {
            status: 429,
          },
        );
      },
    });
    expect(await client.validate(address)).toMatchObject({ type: "failed", code: "rate_limited" });
    expect(await client.check({ address })).toMatchObject({ type: "not_charged", status: 429 });
    expect(await client.deep({ address })).toMatchObject({ type: "not_charged", status: 429 });
    expect(requests).toEqual([
      { method: "GET", url: `http://api.test/validate?address=${address}`, redirect: "manual" },
      { method: "POST", url: "http://api.test/check", redirect: "manual" },
      { method: "POST", url: "http://api.test/deep", redirect: "manual" },
    ]);
    // No key pinned yet: a receipt cannot be verified, so it is not asked for.
    expect(await client.receipt(`0x${"ab".repeat(32)}`)).toMatchObject({
      type: "receipt_unavailable",
      code: "attestation_missing",
      charged: "unknown",
    });
    expect(await client.closeChannel()).toEqual({
      type: "failed",
      message: "No payment channel is configured.",
    });
    expect(requests).toHaveLength(3);
  });
});
