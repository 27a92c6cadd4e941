import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { browser } from "wxt/browser";
import { defineContentScript } from "wxt/utils/define-content-script";
import { offerBridgeKey } from "../../lib/bridge/bridgeKeyExchange";
import { openSecureChannel } from "../../lib/bridge/secureChannel";
import { createLazyRuntime } from "../../lib/content/createLazyRuntime";
import { registeredPageRuntime } from "../../lib/content/pageRuntime";
import { editableFieldFrom } from "../../lib/dom/editableFieldFrom";
import { randomHex } from "../../lib/dom/randomHex";
import { watchAddressEntry } from "../../lib/dom/watchAddressEntry";
import { watchScriptedValues } from "../../lib/dom/watchScriptedValues";
import type { RuntimeListener } from "../../lib/messaging/messenger";

// The ISOLATED content script, in every frame (Safe apps and swap widgets live in iframes,
// srcdoc and about:blank ones included): a small loader. At document_start it offers the bridge
// key and opens the send observer's channel (both must come before page scripts); it watches
// fields for addresses with plain listeners; the badge and everything behind it (the
// page-runtime chunk: storage, messaging, the card's loader, the wallet bridge) is imported into
// this isolated world only when the frame needs it: a field focused or given an address, a
// send seen, a message from the extension. A page of hundreds of frames pays for the loader.
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
    // No later hello gets the key: a page script could send one.
    ctx.setTimeout(() => offer.close(), 5_000);

    // The send observer (MAIN world, every page) reports over the channel keyed at document_start.
    const observerChannel = openSecureChannel({
      win: window,
      side: "isolated",
      keyHex,
      subtle: crypto.subtle,
      randomId: () => randomHex(16),
      onMessage(body) {
        // Its ready signal proves it holds the key (authenticated by the channel): no one else
        // gets it. Anything else it says (a send) is the runtime's business.
        if ((body as { event?: unknown } | null)?.event === "ready") offer.close();
        else void runtime.get().then((r) => r.observed(body));
      },
    });

    const runtime = createLazyRuntime(async () => {
      // A dynamic import from a content script runs in its isolated world, out of the page's reach.
      await import(/* @vite-ignore */ browser.runtime.getURL("/page-runtime.js"));
      const start = registeredPageRuntime(globalThis);
      // Only a broken package gets here: the chunk ran but did not register itself.
      if (!start) {
        throw new ConfigurationError("The page runtime did not register", {
          code: "page_runtime_missing",
        });
      }
      return start({ ctx, observerPost: async (body) => (await observerChannel).post(body) });
    });

    const stopWatching = watchAddressEntry(document, {
      onEntry: (entry) => void runtime.get().then((r) => r.entered(entry)),
      onClear: (field) => runtime.current()?.cleared(field),
      now: () => performance.now(),
    });
    ctx.onInvalidated(stopWatching);
    watchScriptedValues(
      document,
      ctx,
      (value) => void runtime.get().then((r) => r.scripted(value)),
    );
    // A field in use: load now, so the address the person is about to paste finds the badge ready.
    ctx.addEventListener(
      document,
      "focusin",
      (event) => {
        if (!runtime.current() && editableFieldFrom(event.composedPath())) void runtime.get();
      },
      { capture: true },
    );

    // A message for this frame before the runtime runs (the popup asks for the wallet): the
    // runtime is loaded and answers it; once it runs, its own listener answers everything.
    const onMessage: RuntimeListener = (message, sender, sendResponse) => {
      if (runtime.current() || (message as { presend?: unknown } | null)?.presend !== 1) {
        return undefined;
      }
      runtime.get().then(
        (r) => {
          if (r.deliver(message, sender, sendResponse) === undefined) sendResponse(undefined);
        },
        () => sendResponse(undefined),
      );
      return true;
    };
    const onMessageApi = browser.runtime.onMessage as unknown as {
      addListener(listener: RuntimeListener): void;
      removeListener(listener: RuntimeListener): void;
    };
    onMessageApi.addListener(onMessage);
    ctx.onInvalidated(() => onMessageApi.removeListener(onMessage));
  },
});
