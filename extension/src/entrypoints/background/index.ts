import { browser } from "wxt/browser";
import { defineBackground } from "wxt/utils/define-background";
import { createMessenger, type MessagingApi } from "../../lib/messaging/messenger";
import type { WalletInfo } from "../../lib/messaging/protocol";
import { createCheckService } from "../../lib/payments/createCheckService";

const noWallet: WalletInfo = { available: false, address: null, chainId: null, name: null };

// The background is the only part that spends: it talks to the API, verifies attestations,
// enforces the cap and writes history. Content scripts and the popup only ask.
export default defineBackground({
  type: "module",
  main() {
    const messenger = createMessenger(browser as unknown as MessagingApi);
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
    const checks = createCheckService({
      messenger,
      extensionOrigin: browser.runtime.getURL("/"),
      keepAlive,
    });
    messenger.handle({
      "check.start": (request, sender) => checks.start(request, sender),
      "wallet.status": ({ tabId }) =>
        messenger.sendToTab(tabId, "wallet.info", {}).catch(() => noWallet),
    });
  },
});
