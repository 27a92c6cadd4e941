import { webcrypto } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { noWallet } from "../wallet/noWallet";
import { BridgeRequestSchema } from "./bridgeRequest";
import { createWalletBridge } from "./createWalletBridge";
import { openSecureChannel } from "./secureChannel";

// One window shared by both sides, as in a page: postMessage reaches every listener.
function sharedWindow() {
  const target = new EventTarget();
  return {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    postMessage(data: unknown) {
      queueMicrotask(() => target.dispatchEvent(new MessageEvent("message", { data })));
    },
  } as unknown as Window;
}

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
let counter = 0;
const randomId = () => `id-${++counter}`;
let keys = 0;
const newKey = () => (++keys).toString(16).padStart(2, "0").repeat(32);

describe("createWalletBridge", () => {
  it("injects the bridge on the first request only, with a fresh key, and relays its answers", async () => {
    const win = sharedWindow();
    const inject = vi.fn(async (keyHex: string) => {
      // The injected MAIN-world side: answers "info" over the channel keyed with keyHex.
      const main = await openSecureChannel({
        win,
        side: "main",
        keyHex,
        subtle,
        randomId,
        onMessage: (body) => {
          const request = BridgeRequestSchema.parse(body);
          void main.post({ re: request.id, ok: true, data: noWallet });
        },
      });
      await main.post({ event: "ready" });
    });
    const bridge = createWalletBridge({
      win,
      randomId,
      newKey,
      subtle,
      inject,
      onWallet: () => {},
    });
    expect(inject).not.toHaveBeenCalled();
    await expect(bridge.request("info", {}, 1_000)).resolves.toEqual(noWallet);
    await expect(bridge.request("info", {}, 1_000)).resolves.toEqual(noWallet);
    expect(inject).toHaveBeenCalledTimes(1);
    expect(inject.mock.calls[0]?.[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("ignores a bridge speaking with another key, fails as no_wallet, and tries again next time", async () => {
    const win = sharedWindow();
    const inject = vi.fn(async () => {
      const impostor = await openSecureChannel({
        win,
        side: "main",
        keyHex: "ee".repeat(32),
        subtle,
        randomId,
        onMessage: () => undefined,
      });
      await impostor.post({ event: "ready" });
    });
    const bridge = createWalletBridge({
      win,
      randomId,
      newKey,
      subtle,
      inject,
      onWallet: () => {},
      readyTimeoutMs: 100,
    });
    await expect(bridge.request("info", {}, 1_000)).rejects.toMatchObject({ code: "no_wallet" });
    await expect(bridge.request("info", {}, 1_000)).rejects.toMatchObject({ code: "no_wallet" });
    expect(inject).toHaveBeenCalledTimes(2);
  });
});
