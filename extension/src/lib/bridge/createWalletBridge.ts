import { MessageError } from "../messaging/MessageError";
import type { WalletInfo } from "../messaging/protocol";
import type { BridgeResult } from "./bridgeProtocol";
import type { BridgeRequestKind } from "./bridgeRequest";
import { type BridgeClient, createBridgeClient } from "./createBridgeClient";
import { type ChannelWindow, openSecureChannel } from "./secureChannel";

export type WalletBridgeOptions = {
  win: ChannelWindow;
  randomId: () => string;
  /** A fresh 32-byte key in hex for the bridge's channel. */
  newKey: () => string;
  subtle: SubtleCrypto;
  /** Puts the MAIN-world bridge into the page and hands it the key (see scriptKeyHandOff). */
  inject: (keyHex: string) => Promise<void>;
  onWallet: (info: WalletInfo) => void;
  /** How long the injected bridge may take to open its channel. */
  readyTimeoutMs?: number;
};

/**
 * The ISOLATED side of the on-demand wallet bridge: the first request injects the bridge
 * (wagmi over the page's wallet) with a fresh channel key and waits until it answers; later
 * requests reuse it. A bridge that did not start is tried again on the next request.
 * @example const bridge = createWalletBridge({ win: window, randomId, newKey, subtle, inject, onWallet }); await bridge.request("info", {}, 3_000)
 */
export function createWalletBridge(options: WalletBridgeOptions): Pick<BridgeClient, "request"> {
  let started: Promise<BridgeClient> | null = null;

  const start = async (): Promise<BridgeClient> => {
    const keyHex = options.newKey();
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => {
      markReady = resolve;
    });
    const channel = await openSecureChannel({
      win: options.win,
      side: "isolated",
      keyHex,
      subtle: options.subtle,
      randomId: options.randomId,
      onMessage: (body) => client.receive(body),
    });
    const client = createBridgeClient({
      post: (body) => channel.post(body),
      randomId: options.randomId,
      onReady: () => markReady(),
      onWallet: options.onWallet,
    });
    await options.inject(keyHex);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error("The wallet bridge did not start.")),
        options.readyTimeoutMs ?? 5_000,
      );
    });
    try {
      await Promise.race([ready, timedOut]);
    } finally {
      clearTimeout(timer);
    }
    return client;
  };

  return {
    async request<K extends BridgeRequestKind>(
      kind: K,
      fields: Parameters<BridgeClient["request"]>[1],
      timeoutMs: number,
    ): Promise<BridgeResult<K>> {
      started ??= start().catch((cause: unknown) => {
        started = null;
        throw new MessageError(
          { code: "no_wallet", message: "The wallet bridge could not be started in this page." },
          { cause },
        );
      });
      const client = await started;
      return client.request(kind, fields as never, timeoutMs);
    },
  } as Pick<BridgeClient, "request">;
}
