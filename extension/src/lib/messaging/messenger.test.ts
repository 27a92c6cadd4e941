import { describe, expect, it } from "vitest";
import { MessageError } from "./MessageError";
import { createMessenger, type MessageSender, type MessagingApi } from "./messenger";

type Listener = Parameters<MessagingApi["runtime"]["onMessage"]["addListener"]>[0];

// An in-memory runtime: sendMessage delivers to the registered listeners as `sender`.
function loopback(sender: MessageSender) {
  const listeners = new Set<Listener>();
  const api: MessagingApi = {
    runtime: {
      id: "presend-id",
      sendMessage: (message) =>
        new Promise((resolve) => {
          for (const listener of listeners) {
            if (listener(message, sender, resolve)) return;
          }
          resolve(undefined);
        }),
      onMessage: {
        addListener: (listener) => listeners.add(listener),
        removeListener: (listener) => listeners.delete(listener),
      },
    },
  };
  return api;
}

const info = { available: true, address: null, chainId: 8453, name: "Test Wallet", others: [] };

describe("createMessenger", () => {
  it("delivers a validated request and returns the validated answer", async () => {
    const messenger = createMessenger(loopback({ id: "presend-id" }));
    messenger.handle({ "wallet.status": async ({ tabId }) => ({ ...info, chainId: tabId }) });
    await expect(messenger.send("wallet.status", { tabId: 10 })).resolves.toEqual({
      ...info,
      chainId: 10,
    });
  });

  it("refuses messages from another extension", async () => {
    const messenger = createMessenger(loopback({ id: "someone-else" }));
    messenger.handle({ "wallet.status": async () => info });
    await expect(messenger.send("wallet.status", { tabId: 1 })).rejects.toMatchObject({
      code: "not_allowed",
    });
  });

  it("rejects a malformed answer instead of passing it on", async () => {
    const messenger = createMessenger(loopback({ id: "presend-id" }));
    messenger.handle({
      "wallet.status": async () =>
        ({ ...info, address: "0xnot-an-address" }) as unknown as typeof info,
    });
    await expect(messenger.send("wallet.status", { tabId: 1 })).rejects.toMatchObject({
      code: "invalid",
    });
  });

  it("carries a handler's failure across as a MessageError", async () => {
    const messenger = createMessenger(loopback({ id: "presend-id" }));
    messenger.handle({
      "wallet.status": async () => {
        throw new MessageError({ code: "no_wallet", message: "No wallet in this tab." });
      },
    });
    const error = await messenger.send("wallet.status", { tabId: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageError);
    expect(error).toMatchObject({ code: "no_wallet", message: "No wallet in this tab." });
  });

  it("refuses to send a request that does not match the protocol", async () => {
    const messenger = createMessenger(loopback({ id: "presend-id" }));
    await expect(
      messenger.send("wallet.status", { tabId: "one" as unknown as number }),
    ).rejects.toThrow();
  });
  describe("sendToTab when the tab cannot be reached", () => {
    // A tab whose message fails: its page never answers, and the tab is `open` or gone.
    const unreachableTab = (open: boolean): MessagingApi => ({
      ...loopback({ id: "presend-id" }),
      tabs: {
        sendMessage: async () => {
          throw new Error("A listener indicated an asynchronous response, but the channel closed");
        },
        get: async (tabId) => {
          if (!open) throw new Error(`No tab with id: ${tabId}.`);
          return { id: tabId };
        },
      },
    });
    const ask = (api: MessagingApi) =>
      createMessenger(api)
        .sendToTab(7, "wallet.status", { tabId: 7 })
        .catch((error: unknown) => error);

    it("a tab closed while its page was asked is page_left: the wallet was there, its page went", async () => {
      expect(await ask(unreachableTab(false))).toMatchObject({ code: "page_left" });
    });

    it("a tab still open whose page does not answer has no presend in it: no_wallet", async () => {
      expect(await ask(unreachableTab(true))).toMatchObject({ code: "no_wallet" });
    });
  });
});
