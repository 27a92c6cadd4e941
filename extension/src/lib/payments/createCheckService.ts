import type { Address } from "viem";
import { stringifyWithBigints } from "../bridge/jsonWithBigints";
import type { ChannelAccess } from "../channel/createChannelAccess";
import { MessageError } from "../messaging/MessageError";
import type { MessageSender, Messenger } from "../messaging/messenger";
import type {
  CheckOutcome,
  CheckStart,
  Progress,
  RecoveryOutcome,
  RecoveryStart,
} from "../messaging/protocol";
import { createPendingSpend } from "./createPendingSpend";
import { recoverReport } from "./recoverReport";
import { type PaidCheckDeps, runPaidCheck } from "./runPaidCheck";

/**
 * Who clicked and whose wallet pays: the tab and frame, and the document there the click was
 * made in (a badge's own; the popup's is the one that shares the account), once known.
 */
type Source = { kind: "badge" | "popup"; tabId: number; frameId: number; document?: string };

export type CheckServiceOptions = {
  messenger: Messenger;
  /** chrome-extension://<id>/ : the popup's origin. */
  extensionOrigin: string;
  /** Keeps the service worker alive while a person is deciding in their wallet. */
  keepAlive: () => () => void;
  /** What every check uses besides the clicking tab's wallet: the API, storage, the clock. */
  checks: Omit<PaidCheckDeps, "wallet" | "progress" | "pending" | "channel">;
  /** The background's payment channels (absent: every check is paid by its own signature). */
  channel?: ChannelAccess;
};

/**
 * The background's paid-check service: decides who may start a check, runs it with the wallet
 * of the right tab, and reports progress to whoever clicked.
 * @example const service = createCheckService({ messenger, extensionOrigin, keepAlive, checks })
 */
export function createCheckService(options: CheckServiceOptions) {
  const { messenger } = options;
  // A session is used once: a repeated id (a replayed message) never pays twice.
  const usedSessions = new Set<string>();
  // Shared by all checks, so checks running at the same time are held against the cap together.
  const pending = createPendingSpend();
  const notAllowed = () =>
    new MessageError({
      code: "not_allowed",
      message: "Paid checks start from the badge or the popup.",
    });

  const sourceOf = (
    request: Pick<CheckStart, "source" | "document">,
    sender: MessageSender,
  ): Source => {
    // The extension's own pages first: the popup opened in a tab has a sender.tab too, and
    // must pay with the tab it names, not with itself.
    if (sender.url?.startsWith(options.extensionOrigin)) {
      if (request.source?.kind === "popup") return request.source;
      throw notAllowed();
    }
    if (sender.tab?.id !== undefined) {
      // From a content script: the tab is the sender's own, whatever the message claims; the
      // document is the one the content script runs in (its own key).
      return {
        kind: "badge",
        tabId: sender.tab.id,
        frameId: sender.frameId ?? 0,
        ...(request.document !== undefined && { document: request.document }),
      };
    }
    throw notAllowed();
  };

  const claimSession = (session: string) => {
    if (usedSessions.has(session)) {
      throw new MessageError({ code: "not_allowed", message: "This check was already started." });
    }
    usedSessions.add(session);
  };

  return {
    /**
     * Fetches a charged report again (GET /receipts), asking the wallet of the clicking tab for
     * the payer's receipt signature: one signature per click, never a payment.
     */
    async recover(request: RecoveryStart, sender: MessageSender): Promise<RecoveryOutcome> {
      const source = sourceOf(request, sender);
      claimSession(request.session);
      let signed = false;
      const release = options.keepAlive();
      try {
        return await recoverReport(request.recoveryId, {
          ...options.checks,
          async signMessage(account, message) {
            if (signed) {
              throw new MessageError({
                code: "not_allowed",
                message: "Already signed for this click.",
              });
            }
            signed = true;
            const { signature } = await messenger.sendToTab(
              source.tabId,
              "wallet.signMessage",
              {
                session: request.session,
                account,
                message,
                ...(source.document !== undefined && { document: source.document }),
              },
              source.frameId,
            );
            return signature as `0x${string}`;
          },
        });
      } finally {
        release();
      }
    },

    async start(request: CheckStart, sender: MessageSender): Promise<CheckOutcome> {
      const source = sourceOf(request, sender);
      claimSession(request.session);
      const progress = (p: Progress) => {
        const message = { session: request.session, progress: p };
        const sent =
          source.kind === "badge"
            ? messenger.sendToTab(source.tabId, "check.progress", message, source.frameId)
            : messenger.send("check.progress", message);
        sent.catch(() => undefined);
      };
      let signed = false;
      // The session key's vouchers of this click pay at most this check's price (the access
      // bounds them per options() call, made once per check): a replayed or second request of
      // the same session was refused above.
      const access = options.channel;
      const channel = access && {
        options: (
          scope: { apiUrl: string; payer: Address },
          deposit: bigint,
          price: () => bigint | null,
        ) => access.options(scope, deposit, price),
        exclusive: access.exclusive,
        startOver: access.startOver,
      };
      // Every wallet request of this check goes to the document it was started in: a page the
      // tab shows since (a reload, another site) refuses it unasked ("page_left").
      let document = source.document;
      const inDocument = () => (document !== undefined ? { document } : {});
      const release = options.keepAlive();
      try {
        return await runPaidCheck(
          { route: request.route, address: request.address as Address, chain: request.chain },
          {
            ...options.checks,
            pending,
            progress,
            ...(channel && { channel }),
            wallet: {
              account: async () => {
                const shared = await messenger.sendToTab(
                  source.tabId,
                  "wallet.account",
                  { session: request.session, ...inDocument() },
                  source.frameId,
                );
                // The popup names no document: the one that shared the account pays.
                document ??= shared.document;
                return shared.address;
              },
              call: async (chainId, to, data) =>
                (
                  await messenger.sendToTab(
                    source.tabId,
                    "wallet.call",
                    { session: request.session, ...inDocument(), chainId, to, data },
                    source.frameId,
                  )
                ).data as `0x${string}`,
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
                  {
                    session: request.session,
                    ...inDocument(),
                    typedData: stringifyWithBigints(typedData),
                  },
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
