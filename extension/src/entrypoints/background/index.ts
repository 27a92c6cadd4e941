import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import {
  channelBalances,
  channelSalts,
  channelStates,
  sessionKey,
} from "../../lib/channel/channelItems";
import { closeChannels } from "../../lib/channel/closeChannels";
import { createChannelAccess } from "../../lib/channel/createChannelAccess";
import { createPageChainReader } from "../../lib/channel/createPageChainReader";
import { randomHex } from "../../lib/dom/randomHex";
import { MessageError } from "../../lib/messaging/MessageError";
import { createMessenger, type MessagingApi } from "../../lib/messaging/messenger";
import { openSidePanel, type SidePanelApi } from "../../lib/panel/openSidePanel";
import { createCheckService } from "../../lib/payments/createCheckService";
import { createPinStore } from "../../lib/payments/createPinStore";
import { createSendQuota } from "../../lib/storage/createSendQuota";
import {
  history,
  historyLimit,
  pendingRecoveries,
  pinnedKeys,
  settings,
  spendLedger,
} from "../../lib/storage/items";
import { recordSentRecipients } from "../../lib/storage/recordSentRecipients";
import { noWallet } from "../../lib/wallet/noWallet";

// The background is the only part that spends: it talks to the API, verifies attestations,
// enforces the cap and writes history. Content scripts and the popup only ask.
export default defineBackground({
  type: "module",
  main() {
    const messenger = createMessenger(browser as unknown as MessagingApi);
    // The first-run page (the chip, the price, the signature), once, on install.
    browser.runtime.onInstalled.addListener(({ reason }) => {
      if (reason === "install")
        void browser.tabs.create({ url: browser.runtime.getURL("/welcome.html") });
    });
    const sendQuota = createSendQuota(20);
    let active = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    const keepAlive = () => {
      // An extension API call every 20 s resets the service worker's idle timer while a
      // person takes their time in the wallet prompt.
      active++;
      timer ??= setInterval(() => void browser.runtime.getPlatformInfo(), 20_000);
      return () => {
        active--;
        if (active === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    };
    const extensionOrigin = browser.runtime.getURL("/");
    // The session key is made and used here only; session storage keeps it from content scripts.
    const channel = createChannelAccess({
      sessionKey,
      states: channelStates,
      salts: channelSalts,
      balances: channelBalances,
      now: () => new Date(),
    });
    // A browser restart emptied session storage: the channels it held can pay no more.
    void channel.markEndedSessions().catch(() => undefined);
    const checks = createCheckService({
      messenger,
      extensionOrigin,
      keepAlive,
      channel,
      checks: {
        fetch: (input, init) => fetch(input, init),
        settings: () => settings.getValue(),
        pinnedKeys,
        ledger: spendLedger,
        history,
        historyLimit,
        recoveries: pendingRecoveries,
        now: () => new Date(),
        randomId: () => randomHex(16),
      },
    });
    messenger.handle({
      "check.start": (request, sender) => checks.start(request, sender),
      "recovery.fetch": (request, sender) => checks.recover(request, sender),
      "wallet.status": ({ tabId }) =>
        messenger.sendToTab(tabId, "wallet.info", {}).catch(() => noWallet),
      "channel.close": async ({ tabId }, sender) => {
        // Only the extension's own pages (the popup) close a channel: never a tab's content script.
        if (!sender.url?.startsWith(extensionOrigin)) {
          throw new MessageError({
            code: "not_allowed",
            message: "Channels close from the popup.",
          });
        }
        const release = keepAlive();
        try {
          return await closeChannels({
            fetch: (input, init) => fetch(input, init),
            settings: () => settings.getValue(),
            pinStore: createPinStore(pinnedKeys),
            balances: channelBalances,
            access: channel,
            ledger: spendLedger,
            now: () => new Date(),
            // The popup's tab's wallet reads the escrow on Base (read-only, no prompt).
            ...(typeof tabId === "number" && {
              readContract: createPageChainReader(async (chainId, to, data) => {
                const read = await messenger.sendToTab(tabId, "wallet.call", {
                  session: randomHex(16),
                  chainId,
                  to,
                  data,
                });
                return read.data as `0x${string}`;
              }),
            }),
          });
        } finally {
          release();
        }
      },
      "options.open": async () => {
        await browser.runtime.openOptionsPage();
        return null;
      },
      // A click in a badge: nothing is awaited before the panel opens (the browser's condition).
      "panel.open": async (_request, sender) => {
        if (sender.tab?.id === undefined) return { opened: false };
        const target = { tabId: sender.tab.id, frameId: sender.frameId ?? 0 };
        const opened = await openSidePanel(browser as unknown as SidePanelApi, target, (t) =>
          browser.storage.session.set({ panelTarget: t }),
        );
        return { opened };
      },
      // "Off on this site" from a badge: the site is the sender frame's, as the browser says.
      "site.disable": async (_request, sender) => {
        const site = sender.url ? new URL(sender.url).hostname : "";
        if (sender.tab?.id === undefined || !site) return null;
        await settings.update((current) =>
          current.disabledSites.includes(site)
            ? current
            : { ...current, disabledSites: [...current.disabledSites, site] },
        );
        return null;
      },
      "recipient.sent": async ({ addresses }, sender) => {
        // Only content scripts (a tab) report sends; the list only feeds the local warning.
        if (sender.tab?.id === undefined) return null;
        // A page can fake sends through its own provider: each tab and site has a quota.
        const site = sender.origin ?? (sender.url ? new URL(sender.url).origin : "");
        const accepted = sendQuota.take(`${sender.tab.id} ${site}`, addresses);
        if (accepted.length > 0) await recordSentRecipients(accepted, new Date(), site);
        return null;
      },
    });
  },
});
