import { expect, test } from "../fixtures/test";
import { clickBadgeButton, expandBadge, finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { balances, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// A site the wallet is not connected to, as most sites are the first time: the wallet answers
// eth_accounts with [] until the person agrees to connect. The card says so, the paid click
// asks once to connect (eth_requestAccounts), then for the signature; in between the wallet is
// asked only when it reports a change, never polled.

test.beforeEach(({ wallet }) => {
  wallet.state.authorized = false;
});

test("with the card open on a site the wallet is not connected to, the wallet is asked only when something changed", async ({
  dapp,
  wallet,
  api,
}) => {
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await expandBadge(dapp);
  const card = await waitForBadge(dapp, (b) => "wallet-connect" in b.byTestId);
  expect(card.byTestId["wallet-connect"]).toContain("presend Test Wallet");
  expect(card.byTestId["wallet-connect"]).toContain("not connected to this site");
  await screenshot(dapp, "card-wallet-not-connected");

  // Reading the wallet once costs eth_accounts and eth_chainId; an idle card asks nothing more.
  const opened = wallet.requests.length;
  expect(opened).toBeLessThanOrEqual(4);
  await dapp.waitForTimeout(3_000);
  expect(wallet.requests.slice(opened)).toEqual([]);
  // Nothing redraws the card on its own, so the paid buttons arm and stay armed.
  expect((await waitForBadge(dapp, (b) => b.clickReady)).clickReady).toBe(true);

  // The wallet's own event is news: the card follows a chain switch without polling.
  wallet.state.chainId = 42161;
  await dapp.evaluate(() =>
    (window as unknown as { emitWalletEvent: (e: string, v: unknown) => void }).emitWalletEvent(
      "chainChanged",
      "0xa4b1",
    ),
  );
  expect((await waitForBadge(dapp, (b) => b.chain === "arbitrum")).chain).toBe("arbitrum");
  expect(wallet.requests.length - opened).toBeLessThanOrEqual(2);
});

test("connect, then pay: one connect request, then the signature, and the verdict", async ({
  api,
  dapp,
  wallet,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => "wallet-connect" in b.byTestId);
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);

  expect(badge.level).toBe("ok");
  const methods = wallet.requests.map((r) => r.method);
  expect(methods.filter((m) => m === "eth_requestAccounts")).toHaveLength(1);
  expect(wallet.signRequests()).toHaveLength(1);
  expect(methods.indexOf("eth_requestAccounts")).toBeLessThan(
    methods.indexOf("eth_signTypedData_v4"),
  );
  expect(methods).not.toContain("wallet_requestPermissions");
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
});

test("refusing to connect asks for no signature and charges nothing", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  wallet.state.refuseConnect = true;
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => "wallet-connect" in b.byTestId);
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);

  expect(badge.state).toBe("rejected");
  expect(badge.text).toContain("You declined to connect your wallet to this site.");
  expect(badge.text).toContain("Nothing was charged.");
  expect(wallet.requestsOf("eth_requestAccounts")).toHaveLength(1);
  expect(wallet.signRequests()).toHaveLength(0);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toBeUndefined();
  await screenshot(dapp, "card-connect-refused");
});
