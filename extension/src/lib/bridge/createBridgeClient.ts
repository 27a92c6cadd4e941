import { MessageError } from "../messaging/MessageError";
import type { WalletInfo } from "../messaging/protocol";
import {
  BridgeEventSchema,
  BridgeReplySchema,
  type BridgeResult,
  bridgeResultSchemas,
} from "./bridgeProtocol";
import type { BridgeRequestKind } from "./bridgeRequest";
import type { SecureChannel } from "./secureChannel";

export type BridgeClient = {
  request<K extends BridgeRequestKind>(
    kind: K,
    fields: K extends "sign"
      ? { typedData: string }
      : K extends "signMessage"
        ? { account: `0x${string}`; message: string }
        : K extends "code"
          ? { address: `0x${string}` }
          : K extends "call"
            ? { chainId: number; to: `0x${string}`; data: `0x${string}` }
            : Record<string, never>,
    timeoutMs: number,
  ): Promise<BridgeResult<K>>;
  /** Feed every body the channel delivers. */
  receive(body: unknown): void;
};

export type BridgeClientOptions = {
  post: SecureChannel["post"];
  randomId: () => string;
  onReady: () => void;
  onWallet: (info: WalletInfo) => void;
  /** Recipients of a send the page's wallet accepted (untrusted: the page can fake a send). */
  onSent?: (addresses: `0x${string}`[]) => void;
};

/**
 * ISOLATED side of the bridge: requests with ids, answers matched to them, events passed on.
 * @example const client = createBridgeClient({ post: channel.post, randomId, onReady, onWallet })
 */
export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  const pending = new Map<
    string,
    { kind: BridgeRequestKind; settle: (r: unknown) => void; fail: (e: Error) => void }
  >();
  return {
    request(kind, fields, timeoutMs) {
      const id = options.randomId();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          // The bridge was running (it said it was ready): what did not answer is the wallet
          // behind it (hung, or its prompt left open), not a missing wallet. A late answer finds
          // no request and is dropped.
          reject(new MessageError({ code: "no_answer", message: "The wallet did not answer." }));
        }, timeoutMs);
        pending.set(id, {
          kind,
          settle: (r) => {
            clearTimeout(timer);
            resolve(r as BridgeResult<typeof kind>);
          },
          fail: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        });
        options.post({ id, kind, ...fields }).catch((error: unknown) => {
          pending.delete(id);
          clearTimeout(timer);
          reject(error);
        });
      });
    },
    receive(body) {
      const event = BridgeEventSchema.safeParse(body);
      if (event.success) {
        if (event.data.event === "ready") options.onReady();
        else if (event.data.event === "wallet") options.onWallet(event.data.info);
        else options.onSent?.(event.data.addresses);
        return;
      }
      const reply = BridgeReplySchema.safeParse(body);
      if (!reply.success) return;
      const waiting = pending.get(reply.data.re);
      if (!waiting) return;
      pending.delete(reply.data.re);
      if (!reply.data.ok) {
        waiting.fail(new MessageError(reply.data.error));
        return;
      }
      const result = bridgeResultSchemas[waiting.kind].safeParse(reply.data.data);
      if (result.success) waiting.settle(result.data);
      else
        waiting.fail(
          new MessageError({
            code: "invalid",
            message: "Malformed answer from the wallet bridge.",
          }),
        );
    },
  };
}
