import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import type { Address } from "viem";
import { browser } from "wxt/browser";
import { injectScript } from "wxt/utils/inject-script";
import { createBadgeController } from "../badge/createBadgeController";
import { registeredVerdictUi } from "../badge/verdictUi";
import { createBridgeClient } from "../bridge/createBridgeClient";
import { createWalletBridge } from "../bridge/createWalletBridge";
import { handKeyToScript } from "../bridge/scriptKeyHandOff";
import { ancestorsOf } from "../dom/ancestorsOf";
import { randomHex } from "../dom/randomHex";
import { lostCheckOutcome } from "../messaging/lostCheckOutcome";
import { MessageError } from "../messaging/MessageError";
import { createMessenger, type Handlers, type MessagingApi } from "../messaging/messenger";
import { freshVerdict } from "../storage/freshVerdict";
import { history, pendingRecoveries, sentRecipients, settings } from "../storage/items";
import { knownAddresses } from "../storage/knownAddresses";
import type { HistoryEntry } from "../storage/schemas";
import { noWallet } from "../wallet/noWallet";
import type { PageRuntime, PageRuntimeStart } from "./pageRuntime";

/**
 * The content script's runtime in one frame: shows the free local badge, and relays between the
 * background and the MAIN-world wallet bridge. It starts a paid check only from a person's click
 * inside its own closed shadow root. Started by the loader (entrypoints/content) the first time
 * the frame needs it; resolves once the settings are read (a site turned off shows nothing).
 * @example const runtime = await startPageRuntime({ ctx, observerPost })
 */
export async function startPageRuntime({
  ctx,
  observerPost,
}: PageRuntimeStart): Promise<PageRuntime> {
  const messenger = createMessenger(browser as unknown as MessagingApi);
  const randomId = () => randomHex(16);
  // This document's key: a check clicked here names it, and the background's wallet requests
  // for that check are answered by this document only. The tab may have reloaded or gone to
  // another site since the click; that page's wallet is asked nothing of it.
  const documentKey = randomHex(16);
  const ownDocument = (named: string | undefined) => {
    if (named !== undefined && named !== documentKey) {
      throw new MessageError({
        code: "page_left",
        message: "The page this was started from is no longer shown in this tab.",
      });
    }
  };

  let enabled = true;
  let known: Address[] = [];
  let checked: HistoryEntry[] = [];
  const site = location.hostname;

  const badge = createBadgeController({
    doc: document,
    win: window,
    ctx,
    known: () => known,
    freshVerdict: (address, chain) => freshVerdict(checked, address, chain, Date.now()),
    performance,
    site,
    // A person's click in the card; the background keeps it in the settings, per site.
    turnOffSite: () => void messenger.send("site.disable", {}).catch(() => null),
    // Sent within the person's click: the browser opens its side panel only then.
    openPanel: () =>
      messenger.send("panel.open", {}).then(
        (answer) => answer.opened,
        () => false,
      ),
    // The panel (an extension page) hears it; with no panel open nobody does, which is fine.
    onPanelState: (state) => void messenger.send("panel.changed", { state }).catch(() => null),
    // The card is a chunk of its own, imported on the first address: a dynamic import from a
    // content script runs in its isolated world, so the card stays out of the page's reach.
    loadVerdictUi: async () => {
      await import(/* @vite-ignore */ browser.runtime.getURL("/verdict-ui.js"));
      const ui = registeredVerdictUi(globalThis);
      // Only a broken package gets here: the chunk ran but did not register itself.
      if (!ui) {
        throw new ConfigurationError("The verdict UI did not register", {
          code: "verdict_ui_missing",
        });
      }
      return ui;
    },
    // The card shows the paid checks: their chain and the wallet notice need the page wallet.
    onExpand: () => void walletInfo().then((info) => badge.setWallet(info)),
    // Free, through the page wallet's own connection; only ever adds a warning.
    readCode: (address) => bridge.request("code", { address }, 5_000).catch(() => null),
    startCheck(request) {
      // The session id is minted here, on a trusted click, and only travels over extension
      // messaging: the page never sees it, so it cannot start or steer a payment.
      const session = randomHex(16);
      const clickedAt = Date.now();
      badge.beginSession(session);
      messenger.send("check.start", { session, document: documentKey, ...request }).then(
        (outcome) => badge.finish(session, outcome),
        async (error: unknown) => {
          // The background stopped or never answered: what it wrote for this click says
          // whether a payment left (its report can still be fetched) or none did.
          const [recoveries, filed] = await Promise.all([
            pendingRecoveries.getValue(),
            history.getValue(),
          ]);
          const click = { address: request.address, chain: request.chain, at: clickedAt };
          badge.finish(session, lostCheckOutcome(error, { recoveries, history: filed }, click));
        },
      );
    },
    cancelCheck: () => cancelWaiting(),
    openSettings: () => void messenger.send("options.open", {}).catch(() => null),
    startRecovery(recoveryId) {
      // Like a check: a fresh session on a trusted click, over extension messaging only.
      const session = randomHex(16);
      badge.beginRecovery(session);
      messenger.send("recovery.fetch", { session, recoveryId, document: documentKey }).then(
        (outcome) => badge.finishRecovery(session, outcome),
        (error: unknown) =>
          badge.finishRecovery(session, {
            type: "failed",
            message: error instanceof Error ? error.message : String(error),
          }),
      );
    },
  });

  // The send observer's messages, over the channel the loader keyed at document_start.
  const observer = createBridgeClient({
    post: observerPost,
    randomId,
    // The loader closed the key offer when the observer's ready signal came.
    onReady: () => undefined,
    onWallet: () => undefined,
    onSent: (addresses) => void messenger.send("recipient.sent", { addresses }).catch(() => null),
  });
  // The wallet bridge (wagmi, the page's wallet) is injected only when the wallet is needed.
  const bridge = createWalletBridge({
    win: window,
    randomId,
    newKey: () => randomHex(32),
    subtle: crypto.subtle,
    inject: async (keyHex) => {
      const { script } = await injectScript("/wallet-bridge.js");
      handKeyToScript(script, CustomEvent, keyHex);
    },
    onWallet: (info) => badge.setWallet(info),
  });
  const walletInfo = () => bridge.request("info", {}, 3_000).catch(() => noWallet);

  // The card's Cancel stops waiting for the wallet: the background hears "cancelled" and sends
  // nothing, and a signature the wallet gives afterwards is dropped here.
  const waiting = new Set<(error: Error) => void>();
  const cancellable = <T>(request: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      waiting.add(reject);
      request.then(resolve, reject).finally(() => waiting.delete(reject));
    });
  const cancelWaiting = () => {
    const error = new MessageError({ code: "cancelled", message: "Cancelled in presend." });
    for (const reject of waiting) reject(error);
  };

  const handlers: Handlers = {
    "wallet.info": walletInfo,
    // Only the background sends these (the messenger refuses anything else), and it does so
    // only for a session a click in the extension's own UI started.
    // A request that names another document (the check's page was left) is refused unasked.
    "wallet.account": async ({ document: named }) => {
      ownDocument(named);
      const { address } = await cancellable(bridge.request("account", {}, 120_000));
      return { address, document: documentKey };
    },
    "wallet.sign": async ({ typedData, document: named }) => {
      ownDocument(named);
      return cancellable(bridge.request("sign", { typedData }, 180_000));
    },
    "wallet.call": async ({ chainId, to, data, document: named }) => {
      ownDocument(named);
      return bridge.request(
        "call",
        { chainId, to: to as `0x${string}`, data: data as `0x${string}` },
        30_000,
      );
    },
    "wallet.signMessage": async ({ account, message, document: named }) => {
      ownDocument(named);
      return bridge.request("signMessage", { account, message }, 180_000);
    },
    // Only extension pages send these (the messenger refuses anything else): the side panel.
    "panel.state": async () => badge.panelState(),
    "panel.action": async (action) => {
      badge.panelAction(action);
      return null;
    },
    "check.progress": async ({ session, progress }) => {
      badge.progress(session, progress);
      return null;
    },
  };
  ctx.onInvalidated(messenger.handle(handlers));

  const applySettings = (disabledSites: readonly string[]) => {
    enabled = !disabledSites.includes(site);
    if (!enabled) badge.hide();
  };
  ctx.onInvalidated(
    settings.watch((s) => {
      applySettings(s.disabledSites);
      // A check the settings refused (the cap, the API address) may pass now.
      badge.settingsChanged();
    }),
  );

  const loadKnown = async () => {
    checked = await history.getValue();
    known = knownAddresses(checked, await sentRecipients.getValue());
    badge.refresh();
  };
  ctx.onInvalidated(history.watch(() => void loadKnown()));
  ctx.onInvalidated(sentRecipients.watch(() => void loadKnown()));

  // Ready once what the first badge depends on is read: the site may be off, and the lookalike
  // warning needs the addresses checked and sent to before.
  const [current] = await Promise.all([settings.getValue(), loadKnown()]);
  applySettings(current.disabledSites);
  return {
    entered(entry) {
      if (!enabled) return;
      badge.show(entry);
      // The page's own handlers run after this one and may rewrite the value (lower-case it):
      // the badge shows what the field holds once they did.
      ctx.setTimeout(badge.follow, 0);
    },
    cleared: (field) => badge.clear(field),
    scripted({ field, candidate }) {
      if (!enabled) return;
      const at = performance.now();
      badge.show({ field, ancestors: ancestorsOf(field), candidate, trigger: "script", at });
    },
    observed: (body) => observer.receive(body),
    deliver: messenger.listenerFor(handlers),
  };
}
