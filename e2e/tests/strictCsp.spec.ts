import { attachTestWallet } from "../fixtures/attachTestWallet";
import { expect, test } from "../fixtures/test";
import { clickBadgeButton, expandBadge, finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// dApps that lock their pages down with a Content-Security-Policy: no inline script or style,
// no plugins (object-src 'none', which the badge's <object> container must survive), and Trusted
// Types required for every script URL (the wallet bridge is put into the page on demand). The
// page allows its own scripts only; presend must work there unchanged and break none of its rules.

const policies = {
  "self only, no inline style, Trusted Types required":
    "default-src 'self'; object-src 'none'; base-uri 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
  "scripts from self, no plugins, no framing":
    "script-src 'self'; object-src 'none'; frame-ancestors 'none'",
};

for (const [name, policy] of Object.entries(policies)) {
  test(`a page whose CSP is ${name}: the chip, the card and a paid check work, and the page's policy reports nothing of presend's`, async ({
    api,
    context,
    dappUrl,
    wallet,
  }) => {
    const page = await context.newPage();
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Trusted Type/i.test(message.text()))
        violations.push(message.text());
    });
    // The page as such a dApp serves it: one field, its wallet from its own origin, nothing inline.
    await page.route(/\/locked\.html$/, (route) =>
      route.fulfill({
        status: 200,
        headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": policy },
        body: '<!doctype html><html lang="en"><head><title>Locked-down dApp</title></head><body><h1>Send USDC</h1><label for="to">Recipient</label> <input id="to" size="50"><script src="/testWallet.js"></script></body></html>',
      }),
    );
    wallet.state.authorized = false;
    await attachTestWallet(page, wallet);
    await page.goto(`${dappUrl}locked.html`);
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);

    await pasteInto(page, "#to", activeEoa(api.world));
    expect((await waitForBadge(page, (b) => b.visible && b.chip !== null)).chip).toBe(
      "Checksum OK · not checked",
    );
    await expandBadge(page);
    // The wallet was reached through the bridge the page's policy had to let in.
    const card = await waitForBadge(page, (b) => "wallet-connect" in b.byTestId);
    expect(card.byTestId["wallet-connect"]).toContain("presend Test Wallet");
    await clickBadgeButton(page, "check");
    const done = await waitForBadge(page, finished, 30_000);
    expect(done.level).toBe("ok");
    await screenshot(page, `card-strict-csp-${Object.keys(policies).indexOf(name)}`);
    expect(wallet.signRequests()).toHaveLength(1);
    expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
    expect(violations).toEqual([]);
    await page.close();
  });
}
