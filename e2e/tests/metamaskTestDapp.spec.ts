import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "@playwright/test";
import { attachTestWallet } from "../fixtures/attachTestWallet";
import { expect, test } from "../fixtures/test";
import type { TestWallet } from "../fixtures/testWallet";
import { lookalikeOf, randomAddress } from "../helpers/addresses";
import {
  badgeBox,
  clickBadgeButton,
  expandBadge,
  finished,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { lowContrastTextFn } from "../helpers/contrast";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { coveredControls, overlapArea } from "../helpers/overlap";
import { levelColour } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { seedCheckedAddress } from "../helpers/seedHistory";

// MetaMask's own test dApp (npm @metamask/test-dapp, served from its package), a page nobody here
// wrote, with the test wallet announced through EIP-6963 and not connected to the site: the
// wallet answers eth_accounts with [] until the person agrees to connect.

const walletScript = readFileSync(
  join(dirname(fileURLToPath(import.meta.url)), "../dapp/testWallet.js"),
  "utf8",
);

/**
 * A new page on MetaMask's test dApp with the test wallet unconnected, at 1440x900 unless told
 * otherwise (null keeps the context's viewport), in `colorScheme` when one is given.
 */
async function openTestDapp(
  context: BrowserContext,
  wallet: TestWallet,
  dappUrl: string,
  options: {
    colorScheme?: "light" | "dark";
    viewport?: { width: number; height: number } | null;
  } = {},
): Promise<Page> {
  const page = await context.newPage();
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  const viewport = options.viewport === undefined ? { width: 1440, height: 900 } : options.viewport;
  if (viewport) await page.setViewportSize(viewport);
  wallet.state.authorized = false;
  // Offline: its fonts and stylesheets from CDNs are refused at once rather than waited for.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
  await attachTestWallet(page, wallet);
  await page.addInitScript(walletScript);
  await page.goto(`${dappUrl}metamask/index.html`);
  await page.locator("#toInput").waitFor({ state: "attached", timeout: 30_000 });
  return page;
}

test("MetaMask's test dApp: a recipient pasted into 'To' gets the chip, the card covers no control, connect then pay", async ({
  api,
  context,
  dappUrl,
  wallet,
}) => {
  const page = await openTestDapp(context, wallet, dappUrl);
  await page.locator("#toInput").scrollIntoViewIfNeeded();
  await pasteInto(page, "#toInput", activeEoa(api.world));
  const chip = await waitForBadge(page, (b) => b.visible && b.chip !== null);
  expect(chip.chip).toBe("Checksum OK · not checked");
  await screenshot(page, "metamask-test-dapp-chip");
  expect(await coveredControls(page, "chip", ["input#toInput"])).toEqual([]);
  await expandBadge(page);
  await waitForBadge(page, (b) => "wallet-connect" in b.byTestId);
  const field = await page.locator("#toInput").boundingBox();
  if (!field) throw new Error("no field");
  expect(overlapArea(await badgeBox(page, "card"), field)).toBe(0);
  const covered = await coveredControls(page, "card", ["input#toInput"]);
  await screenshot(page, "metamask-test-dapp-card");
  test
    .info()
    .annotations.push({ type: "card covers", description: covered.join(", ") || "nothing" });

  const opened = wallet.requests.length;
  await page.waitForTimeout(3_000);
  expect(wallet.requests.length - opened).toBeLessThanOrEqual(2);

  await clickBadgeButton(page, "check");
  const badge = await waitForBadge(page, finished, 30_000);
  expect(badge.level).toBe("ok");
  expect(wallet.requestsOf("eth_requestAccounts")).toHaveLength(1);
  expect(wallet.signRequests()).toHaveLength(1);
  await screenshot(page, "metamask-test-dapp-verdict");
  await page.close();
});

test("MetaMask's test dApp: 'To' scrolled just into view at the window's bottom edge gets the chip beside it, over no other field", async ({
  api,
  context,
  dappUrl,
  wallet,
}) => {
  const page = await openTestDapp(context, wallet, dappUrl);
  // Where Tab (or a browser's scroll-into-view) leaves a field below the fold: at the bottom edge.
  await page.locator("#toInput").evaluate((field) => field.scrollIntoView({ block: "end" }));
  await pasteInto(page, "#toInput", activeEoa(api.world));
  await waitForBadge(page, (b) => b.visible && b.chip !== null);
  await screenshot(page, "metamask-test-dapp-chip-bottom-edge");
  expect(await coveredControls(page, "chip", ["input#toInput"])).toEqual([]);
  await page.close();
});

test("MetaMask's test dApp: an address pasted into 'To' with an invisible character inside is called no address, and the card names the character", async ({
  api,
  context,
  dappUrl,
  wallet,
}) => {
  const page = await openTestDapp(context, wallet, dappUrl);
  await page.locator("#toInput").evaluate((field) => field.scrollIntoView({ block: "center" }));
  const address = activeEoa(api.world);
  // A zero-width space copied along from a chat or a web page: on screen, the whole address.
  await pasteInto(page, "#toInput", ` ${address.slice(0, 10)}\u200b${address.slice(10)}\n`);
  const chip = await waitForBadge(page, (b) => b.visible && b.chip !== null);
  expect({ chip: chip.chip, level: chip.localLevel }).toEqual({
    chip: "Not an address",
    level: "danger",
  });
  const card = await expandBadge(page);
  expect(card.byTestId["local-decision"]).toContain("Don't send");
  expect(card.byTestId.typo).toContain("it holds an invisible character");
  await screenshot(page, "metamask-test-dapp-invisible-character");
  await page.close();
});

test("MetaMask's test dApp: a click elsewhere badges none of the addresses the page came with (its preset fee token), stepping into that field does", async ({
  context,
  dappUrl,
  wallet,
}) => {
  const page = await openTestDapp(context, wallet, dappUrl);
  await expect(page.locator("#tempoFeeTokenInput")).toHaveValue(/^0x[0-9a-fA-F]{40}$/);
  await page.waitForLoadState("load");
  // The person's first click, on the page's heading: no field of theirs holds an address.
  await page.getByRole("heading").first().click();
  await page.waitForTimeout(1_000);
  // No badge at all (one beside a field out of view is there, only hidden).
  expect((await readBadge(page)).chip).toBeNull();
  // A preset is still what the page will use: stepping into its field shows what it holds.
  await page.locator("#tempoFeeTokenInput").click();
  await expect.poll(async () => (await readBadge(page)).chip).not.toBeNull();
  await page.close();
});

test("MetaMask's test dApp: a token contract in 'ERC20 Token Address' gets no recipient warning", async ({
  context,
  dappUrl,
  wallet,
}) => {
  const page = await openTestDapp(context, wallet, dappUrl, { viewport: null });
  await page.locator("#eip747ContractAddress").scrollIntoViewIfNeeded();
  await pasteInto(page, "#eip747ContractAddress", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
  const chip = await waitForBadge(page, (b) => b.visible && b.chip !== null);
  expect({ chip: chip.chip, level: chip.localLevel }).toEqual({
    chip: "Checksum OK · not checked",
    level: "neutral",
  });
  const card = await expandBadge(page);
  expect(card.text).not.toContain("Ask the recipient");
  await screenshot(page, "metamask-test-dapp-token-field");
  await page.close();
});

// A dark page for a person whose setting is light: the page's own colours, color-scheme and
// fonts on everything it can reach, as a dark-themed dApp sets them.
const darkPage = `:root { color-scheme: dark; background: #0d1117; color: #e6edf3; }
  * { color: #e6edf3 !important; background-color: #161b22 !important; }`;
// The card's surface in each scheme (the extension's --surface token).
const surface = { light: "rgb(255, 255, 255)", dark: "rgb(17, 24, 39)" } as const;

for (const { scheme, page: pageLook } of [
  { scheme: "dark", page: "its own light page" },
  { scheme: "light", page: "a dark page" },
] as const) {
  test(`MetaMask's test dApp, the person's setting ${scheme} on ${pageLook}: the chip and the card follow the setting, not the page, every text at 4.5:1 or more`, async ({
    api,
    context,
    dappUrl,
    serviceWorker,
    wallet,
  }) => {
    const known = randomAddress();
    await seedCheckedAddress(serviceWorker, known);
    const page = await openTestDapp(context, wallet, dappUrl, { colorScheme: scheme });
    if (scheme === "light") await page.addStyleTag({ content: darkPage });
    await page.locator("#toInput").evaluate((field) => field.scrollIntoView({ block: "center" }));
    // A danger first (the lookalike of an address the person used), then a checked ok verdict.
    await pasteInto(page, "#toInput", lookalikeOf(known));
    await waitForBadge(page, (b) => b.visible && b.chip !== null);
    await expandBadge(page);
    await waitForBadge(page, (b) => b.localLevel === "danger");
    const cardLook = () =>
      onBadgeElement<{ card: string; scheme: string; decision: string | null }>(
        page,
        "card",
        `function () {
          const decision = this.querySelector(".decision");
          return {
            card: getComputedStyle(this).backgroundColor,
            scheme: getComputedStyle(this).colorScheme,
            decision: decision && getComputedStyle(decision).backgroundColor,
          };
        }`,
      );
    const lowContrast = () =>
      onBadgeElement<string[]>(
        page,
        "card",
        `function () { return (${lowContrastTextFn}).call(this, 4.5); }`,
      );
    expect(await cardLook()).toEqual({
      card: surface[scheme],
      scheme,
      decision: levelColour("danger", scheme),
    });
    expect(await lowContrast()).toEqual([]);
    await screenshot(page, `metamask-test-dapp-${scheme}-danger`);

    await page.locator("#toInput").fill("");
    await pasteInto(page, "#toInput", activeEoa(api.world));
    const shown = await waitForBadge(page, (b) => b.visible);
    if (!shown.expanded) await expandBadge(page);
    await waitForBadge(page, (b) => "wallet-connect" in b.byTestId);
    await clickBadgeButton(page, "check");
    expect((await waitForBadge(page, finished, 30_000)).level).toBe("ok");
    // The facts table too (a page in quirks mode gives tables colours of its own).
    await clickBadgeButton(page, "details");
    await waitForBadge(page, (b) => Object.keys(b.rows).length > 0);
    expect(await cardLook()).toEqual({
      card: surface[scheme],
      scheme,
      decision: levelColour("ok", scheme),
    });
    expect(await lowContrast()).toEqual([]);
    await screenshot(page, `metamask-test-dapp-${scheme}-verdict`);
    await page.close();
  });
}
