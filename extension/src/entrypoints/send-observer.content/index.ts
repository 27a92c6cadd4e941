import { defineContentScript } from "wxt/utils/define-content-script";
import { receiveBridgeKey } from "../../lib/bridge/bridgeKeyExchange";
import { captureCrypto } from "../../lib/bridge/captureCrypto";
import { openSecureChannel } from "../../lib/bridge/secureChannel";
import { observeSends } from "../../lib/wallet/sentRecipients";

// The small MAIN-world script every page gets: it sees the sends the page's wallet accepts (for
// the lookalike warning), which only code in the page's world that started before the page's
// scripts can see. It reports them to the ISOLATED content script over the keyed channel agreed
// at document_start, and does nothing else: the wallet bridge (wagmi) is injected on demand.
export default defineContentScript({
  matches: ["http://*/*", "https://*/*"],
  world: "MAIN",
  runAt: "document_start",
  allFrames: true,
  matchAboutBlank: true,
  matchOriginAsFallback: true,
  main() {
    // Captured before any page script runs; a page that later replaces these cannot see the key.
    const { subtle, randomId } = captureCrypto();
    const keyReceived = receiveBridgeKey(window, CustomEvent);

    // Sends made before the channel is open are kept until then.
    const early: `0x${string}`[][] = [];
    let reportSent = (addresses: `0x${string}`[]) => void early.push(addresses);
    const wrapped = new WeakSet<object>();
    const observe = (provider: unknown) => observeSends(provider, (a) => reportSent(a), wrapped);
    // Listening before the page's scripts run: every EIP-6963 announcement is seen.
    window.addEventListener("eip6963:announceProvider", (event) =>
      observe((event as CustomEvent<{ provider?: unknown }>).detail?.provider),
    );
    const observeLegacy = () => observe((window as { ethereum?: unknown }).ethereum);
    observeLegacy();
    document.addEventListener("DOMContentLoaded", observeLegacy, { once: true });

    keyReceived.then(async (keyHex) => {
      const channel = await openSecureChannel({
        win: window,
        side: "main",
        keyHex,
        subtle,
        randomId,
        // Nothing to answer: this script takes no requests.
        onMessage: () => undefined,
      });
      await channel.post({ event: "ready" });
      reportSent = (addresses) => void channel.post({ event: "sent", addresses });
      for (const addresses of early.splice(0)) reportSent(addresses);
    });
  },
});
