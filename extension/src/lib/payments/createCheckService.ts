import type { Address } from "viem";
import { verifyAttestation } from "../../../../shared/attestation/verifyAttestation";
import { stringifyWithBigints } from "../bridge/jsonWithBigints";
import { randomHex } from "../dom/randomHex";
import { MessageError } from "../messaging/MessageError";
import type { MessageSender, Messenger } from "../messaging/messenger";
import type { CheckOutcome, CheckStart, Progress } from "../messaging/protocol";
import { history, historyLimit, pinnedKeys, settings, spendLedger } from "../storage/items";
import { runPaidCheck } from "./runPaidCheck";

type Source = { kind: "badge" | "popup"; tabId: number; frameId: number };

/**
 * The background's paid-check service: decides who may start a check, runs it with the wallet
 * of the right tab, and reports progress to whoever clicked.
 * @example const service = createCheckService({ messenger, extensionOrigin, keepAlive })
 */
export function createCheckService(options: {
  messenger: Messenger;
  /** chrome-extension://<id>/ : the popup's origin. */
  extensionOrigin: string;
  /** Keeps the service worker alive while a person is deciding in their wallet. */
  keepAlive: () => () => void;
}) {
  const { messenger } = options;
  // A session is used once: a repeated id (a replayed message) never pays twice.
  const usedSessions = new Set<string>();

  const sourceOf = (request: CheckStart, sender: MessageSender): Source => {
    // The extension's own pages first: the popup opened in a tab has a sender.tab too, and
    // must pay with the tab it names, not with itself.
    if (sender.url?.startsWith(options.extensionOrigin)) {
      if (request.source?.kind === "popup") return request.source;
      throw new MessageError({
        code: "not_allowed",
        message: "Paid checks start from the badge or the popup.",
      });
    }
    if (sender.tab?.id !== undefined) {
      // From a content script: the tab is the sender's own, whatever the message claims.
      return { kind: "badge", tabId: sender.tab.id, frameId: sender.frameId ?? 0 };
    }
    throw new MessageError({
      code: "not_allowed",
      message: "Paid checks start from the badge or the popup.",
    });
  };

  return {
    async start(request: CheckStart, sender: MessageSender): Promise<CheckOutcome> {
      const source = sourceOf(request, sender);
      if (usedSessions.has(request.session)) {
        throw new MessageError({ code: "not_allowed", message: "This check was already started." });
      }
      usedSessions.add(request.session);
      const progress = (p: Progress) => {
        const message = { session: request.session, progress: p };
        const sent =
          source.kind === "badge"
            ? messenger.sendToTab(source.tabId, "check.progress", message, source.frameId)
            : messenger.send("check.progress", message);
        sent.catch(() => undefined);
      };
      let signed = false;
      const release = options.keepAlive();
      try {
        return await runPaidCheck(
          { route: request.route, address: request.address as Address, chain: request.chain },
          {
            fetch: (input, init) => fetch(input, init),
            settings: () => settings.getValue(),
            pinnedKeys,
            ledger: spendLedger,
            history,
            historyLimit,
            verify: verifyAttestation,
            progress,
            now: () => new Date(),
            randomId: () => randomHex(16),
            wallet: {
              account: async () =>
                (
                  await messenger.sendToTab(
                    source.tabId,
                    "wallet.account",
                    { session: request.session },
                    source.frameId,
                  )
                ).address,
              async signTypedData(typedData) {
                // One signature per click, whatever happens afterwards.
                if (signed)
                  throw new MessageError({
                    code: "not_allowed",
                    message: "Already signed for this check.",
                  });
                signed = true;
                const { signature } = await messenger.sendToTab(
                  source.tabId,
                  "wallet.sign",
                  { session: request.session, typedData: stringifyWithBigints(typedData) },
                  source.frameId,
                );
                return signature as `0x${string}`;
              },
            },
          },
        );
      } finally {
        release();
      }
    },
  };
}
