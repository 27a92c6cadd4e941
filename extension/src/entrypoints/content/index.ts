import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import type { Address } from "viem";
import { browser } from "wxt/browser";
import { defineContentScript } from "wxt/utils/define-content-script";
import { injectScript } from "wxt/utils/inject-script";
import { createBadgeController } from "../../lib/badge/createBadgeController";
import { registeredVerdictUi } from "../../lib/badge/verdictUi";
import { offerBridgeKey } from "../../lib/bridge/bridgeKeyExchange";
import { createBridgeClient } from "../../lib/bridge/createBridgeClient";
import { createWalletBridge } from "../../lib/bridge/createWalletBridge";
import { handKeyToScript } from "../../lib/bridge/scriptKeyHandOff";
import { openSecureChannel } from "../../lib/bridge/secureChannel";
import { randomHex } from "../../lib/dom/randomHex";
import { watchAddressEntry } from "../../lib/dom/watchAddressEntry";
import { watchScriptedValues } from "../../lib/dom/watchScriptedValues";
import { lostCheckOutcome } from "../../lib/messaging/lostCheckOutcome";
import { MessageError } from "../../lib/messaging/MessageError";
import { createMessenger, type MessagingApi } from "../../lib/messaging/messenger";
import { freshVerdict } from "../../lib/storage/freshVerdict";
import { history, pendingRecoveries, sentRecipients, settings } from "../../lib/storage/items";
import { knownAddresses } from "../../lib/storage/knownAddresses";
import type { HistoryEntry } from "../../lib/storage/schemas";
import { noWallet } from "../../lib/wallet/noWallet";

// The ISOLATED content script: sees addresses typed or pasted anywhere in the page, shows the
// free local badge, and relays between the background and the MAIN-world wallet bridge. It
// starts a paid check only from a person's click inside its own closed shadow root.
// It runs in every frame too (Safe apps and swap widgets live in iframes, srcdoc and
// about:blank ones included); each frame has its own badge and pays with its own wallet.
export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  runAt: "document_start",
  allFrames: true,
  matchAboutBlank: true,
  matchOriginAsFallback: true,
  main(ctx) {
    // First thing at document_start, before page scripts exist: agree on the bridge key.
    const keyHex = randomHex(32);
    const offer = offerBridgeKey(window, CustomEvent, keyHex);
    const messenger = createMessenger(browser as unknown as MessagingApi);
    const randomId = () => randomHex(16);

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
        messenger.send("check.start", { session, ...request }).then(
          (outcome) => badge.finish(session, outcome),
          async (error: unknown) => {
            // The background stopped or never answered: a payment it signed for this click
            // was written down before it was sent, so its report can still be fetched.
            const signed = (await pendingRecoveries.getValue()).find(
              (r) =>
                r.address === request.address &&
                r.chain === request.chain &&
                Date.parse(r.sentAt) >= clickedAt - 1_000,
            );
            badge.finish(session, lostCheckOutcome(error, signed?.id));
          },
        );
      },
      cancelCheck: () => cancelWaiting(),
      openSettings: () => void messenger.send("options.open", {}).catch(() => null),
      startRecovery(recoveryId) {
        // Like a check: a fresh session on a trusted click, over extension messaging only.
        const session = randomHex(16);
        badge.beginRecovery(session);
        messenger.send("recovery.fetch", { session, recoveryId }).then(
          (outcome) => badge.finishRecovery(session, outcome),
          (error: unknown) =>
            badge.finishRecovery(session, {
              type: "failed",
              message: error instanceof Error ? error.message : String(error),
            }),
        );
      },
    });

    const stopWatching = watchAddressEntry(document, {
      onEntry: (entry) => {
        if (!enabled) return;
        badge.show(entry);
        // The page's own handlers run after this one and may rewrite the value (lower-case it):
        // the badge shows what the field holds once they did.
        ctx.setTimeout(badge.follow, 0);
      },
      onClear: (field) => badge.clear(field),
      now: () => performance.now(),
    });
    ctx.onInvalidated(stopWatching);
    watchScriptedValues(document, ctx, ({ field, candidate }) => {
      if (enabled) badge.show({ field, candidate, trigger: "script", at: performance.now() });
    });

    // The send observer (MAIN world, every page) reports over the channel keyed at document_start.
    const observerChannel = openSecureChannel({
      win: window,
      side: "isolated",
      keyHex,
      subtle: crypto.subtle,
      randomId,
      onMessage: (body) => observer.receive(body),
    });
    const observer = createBridgeClient({
      post: async (body) => (await observerChannel).post(body),
      randomId,
      onReady: () => offer.close(),
      onWallet: () => undefined,
      onSent: (addresses) => void messenger.send("recipient.sent", { addresses }).catch(() => null),
    });
    // No later hello gets the key: a page script could send one.
    ctx.setTimeout(() => offer.close(), 5_000);

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

    const stopHandling = messenger.handle({
      "wallet.info": walletInfo,
      // Only the background sends these (the messenger refuses anything else), and it does so
      // only for a session a click in the extension's own UI started.
      "wallet.account": () => cancellable(bridge.request("account", {}, 120_000)),
      "wallet.sign": ({ typedData }) => cancellable(bridge.request("sign", { typedData }, 180_000)),
      "wallet.signMessage": ({ account, message }) =>
        bridge.request("signMessage", { account, message }, 180_000),
      "check.progress": async ({ session, progress }) => {
        badge.progress(session, progress);
        return null;
      },
    });
    ctx.onInvalidated(stopHandling);

    const applySettings = (disabledSites: readonly string[]) => {
      enabled = !disabledSites.includes(site);
      if (!enabled) badge.hide();
    };
    settings.getValue().then((s) => applySettings(s.disabledSites));
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
    void loadKnown();
    ctx.onInvalidated(history.watch(() => void loadKnown()));
    ctx.onInvalidated(sentRecipients.watch(() => void loadKnown()));
  },
});
