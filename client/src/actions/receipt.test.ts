import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { paidOnce } from "../testing/paidOnce";
import { receipt } from "./receipt";

describe("receipt: a paid report fetched again by payer and nonce", () => {
  it("answers the stored report, its signature verified with the pinned key", async () => {
    const { config, payer, nonce } = await paidOnce();
    expect(await receipt(config, { payer: payer.address, nonce })).toMatchObject({
      type: "report",
      signature: "verified",
      recovered: true,
      charged: true,
    });
  });

  it("calls an altered stored report forged", async () => {
    const { config, payer, nonce } = await paidOnce({ receipts: "forged" });
    expect(await receipt(config, { payer: payer.address, nonce })).toMatchObject({
      type: "forged",
      charged: true,
    });
  });

  it("says not charged only when the server holds no such payment (404 receipt_not_found)", async () => {
    const { config, payer, nonce } = await paidOnce({ receipts: "missing" });
    expect(await receipt(config, { payer: payer.address, nonce })).toMatchObject({
      type: "not_charged",
      code: "receipt_not_found",
      status: 404,
    });
  });

  it("leaves the charge unknown on a 404 that is not the server's receipt_not_found (a proxy's page)", async () => {
    const { config, payer, nonce } = await paidOnce();
    // Any 404 without the server's code may come from a gateway in front of it, which knows
    // nothing of the payment: the charge stays unknown.
    const proxied = createPresendConfig({
      url: config.base,
      pinStore: config.pinStore,
      signer: payer,
      fetch: async () => new Response("<html>Not Found</html>", { status: 404 }),
    });
    expect(await receipt(proxied, { payer: payer.address, nonce })).toMatchObject({
      type: "receipt_unavailable",
      status: 404,
      charged: "unknown",
    });
  });

  it("leaves the charge unknown while the chain has not decided (409)", async () => {
    const { config, payer, nonce } = await paidOnce({ receipts: "pending" });
    expect(await receipt(config, { payer: payer.address, nonce })).toMatchObject({
      type: "receipt_unavailable",
      code: "receipt_pending",
      status: 409,
      charged: "unknown",
    });
  });

  it("asks nothing without a pinned key or without the payer's key", async () => {
    const { config, payer, nonce, server } = await paidOnce();
    const asked = server.requests.length;
    const unpinned = createPresendConfig({
      url: "http://api.test",
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: server.fetch,
    });
    expect(await receipt(unpinned, { payer: payer.address, nonce })).toMatchObject({
      type: "receipt_unavailable",
      code: "attestation_missing",
    });
    const keyless = createPresendConfig({
      url: "http://api.test",
      pinStore: config.pinStore,
      fetch: server.fetch,
    });
    expect(await receipt(keyless, { payer: payer.address, nonce })).toMatchObject({
      type: "receipt_unavailable",
      code: "no_signer",
    });
    expect(server.requests.length).toBe(asked);
  });
});
