import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";

// The wallet bridge (wagmi, ~120 kB) is not in every page: the content script injects it when
// the page wallet is needed. A page where an address is only pasted loads the two small content
// scripts; opening the card (which shows the paid checks, their chain and the wallet notice)
// loads the bridge, once.
// The page watches its own DOM for the bridge's <script> (the content script adds it and takes
// it out again at once; a MutationObserver still sees it go in).
const watchForBridge = (page: Page) =>
  page.evaluate(() => {
    const seen = { count: 0 };
    (window as unknown as { bridgeScripts: typeof seen }).bridgeScripts = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        for (const node of record.addedNodes) {
          const src = (node as HTMLScriptElement).src ?? "";
          if (/^chrome-extension:\/\/[^/]+\/wallet-bridge\.js/.test(src)) seen.count++;
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
const bridgeLoads = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { bridgeScripts: { count: number } }).bridgeScripts.count,
  );

test("the wallet bridge is injected only when the card needs the page wallet, and only once", async ({
  api,
  dapp,
  wallet,
}) => {
  await watchForBridge(dapp);
  await pasteInto(dapp, dappFields.input, activeEoa(api.world));
  await waitForBadge(dapp, (b) => b.visible && "chip" in b.byTestId);
  // Time for anything eager to have happened.
  await dapp.waitForTimeout(1_000);
  expect(await bridgeLoads(dapp)).toBe(0);
  expect(wallet.requests).toEqual([]);

  // The wallet is on arbitrum: the card preselects it once the bridge has read the wallet.
  wallet.state.chainId = 42161;
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.chain === "arbitrum");
  expect(await bridgeLoads(dapp)).toBe(1);

  // Collapsing and opening again reuses the bridge.
  await dapp.keyboard.press("Escape");
  await waitForBadge(dapp, (b) => !b.expanded);
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.chain === "arbitrum");
  expect(await bridgeLoads(dapp)).toBe(1);
});
