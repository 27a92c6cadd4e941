import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import { gate } from "../helpers/gate";
import { balances, pasteAndCheck, pasteAndClick } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// Before any signature the background verifies the 402 against the payee attestation pinned for
// the API (trust on first use). These tests put a real second server or a rewriting proxy between the
// extension and the real API, and prove the wallet is never asked to sign.

test("a server swapped in behind the same URL (another attestation key) is refused as 'key changed', nothing signed", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
  startSibling,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const impostor = await startSibling({ PAY_TO: randomAddress() });
  const who = {
    payer: wallet.account.address,
    payTo: api.world.accounts.payTo.address,
    impostor: impostor.payTo,
  };
  const before = await balances(api, who);

  // First use pins the real server's key for the proxy's URL.
  const first = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(first.level).toBe("ok");

  proxy.target = impostor.url;
  const second = await pasteAndCheck(dapp, randomAddress(), "check");

  expect(second.state).toBe("refused");
  expect(second.code).toBe("key_changed");
  expect(second.text).toContain("attestation key changed");
  expect(second.text).toContain("Nothing was charged.");
  expect(wallet.signRequests()).toHaveLength(1);
  const after = await balances(api, who);
  expect(after).toEqual({
    ...before,
    payer: (before.payer ?? 0n) - 10_000n,
    payTo: (before.payTo ?? 0n) + 10_000n,
  });
});

test("a proxy that rewrites the 402's payTo (header and body) is refused as a payee mismatch, nothing signed", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const attacker = randomAddress();
  const proxy = await startProxy(api.url);
  proxy.rewritePayTo = attacker;
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = { payer: wallet.account.address, payTo: api.world.accounts.payTo.address, attacker };
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

  expect(badge.state).toBe("refused");
  expect(badge.code).toBe("attestation_mismatch");
  expect(badge.text).toContain(`asks to pay ${attacker}`);
  expect(wallet.signRequests()).toEqual([]);
  expect(await balances(api, who)).toEqual(before);
  // Nothing is pinned from a challenge that failed verification.
  expect(await getExtensionStorage(serviceWorker, "pinnedAttestationKeys")).toBeUndefined();
});

test("a proxy that turns the 402 into a Permit2 payment (same payee, price and asset) is refused before the wallet is asked", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  // Everything the attestation vouches for is left as it is: only how the money would move
  // changes, to an approval and a Permit2 transfer the spend cap never sees.
  proxy.rewriteOffer = (offer) => ({
    ...offer,
    extra: { ...offer.extra, assetTransferMethod: "permit2" },
  });
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const who = { payer: wallet.account.address, payTo: api.world.accounts.payTo.address };
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

  expect(badge.state).toBe("refused");
  expect(badge.code).toBe("unexpected_challenge");
  expect(badge.text).toContain("permit2");
  expect(badge.text).toContain("Nothing was charged.");
  expect(wallet.signRequests()).toEqual([]);
  expect(await balances(api, who)).toEqual(before);
  await screenshot(dapp, "refused-permit2");
});

test("another API URL gets its own pinned key; both pins are listed in the options", async ({
  api,
  context,
  dapp,
  extensionId,
  serviceWorker,
  startSibling,
}) => {
  const other = await startSibling({ PAY_TO: randomAddress() });
  const before = await balances(api, { other: other.payTo });
  await pasteAndCheck(dapp, activeEoa(api.world), "check");

  await setExtensionSettings(serviceWorker, { apiUrl: other.url });
  const badge = await pasteAndCheck(dapp, randomAddress(), "check");

  expect(badge.level).toBe("caution");
  expect((await balances(api, { other: other.payTo })).other).toBe((before.other ?? 0n) + 10_000n);
  const pins = (await getExtensionStorage(serviceWorker, "pinnedAttestationKeys")) as Record<
    string,
    { fingerprint: string }
  >;
  expect(Object.keys(pins).sort()).toEqual([api.url, other.url].sort());
  expect(pins[api.url]?.fingerprint).not.toBe(pins[other.url]?.fingerprint);

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.getByTestId("pin")).toHaveCount(2);
  await expect(options.getByTestId("pin").first()).toContainText("(the API in use)");
  await expect(options.getByTestId("pin").first()).toContainText(other.url);
});

test("every step is shown: what will be paid and to whom while the wallet decides, then checking, then the verdict", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startProxy,
}) => {
  const proxy = await startProxy(api.url);
  await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });
  const signature = gate();
  const paidRequest = gate();
  wallet.state.holdSignatures = signature.promise;
  proxy.holdPaid = paidRequest.promise;

  await pasteAndClick(dapp, activeEoa(api.world), "check");

  const waiting = await waitForBadge(dapp, (b) => b.state === "waiting-wallet");
  // In human terms, before the wallet shows its raw request: how much, to whom, what it allows.
  const payTo = api.world.accounts.payTo.address;
  expect(waiting.byTestId["payment-terms"]).toBe(
    `Sign in your wallet: a $0.01 USDC payment to presend (${payTo.slice(0, 6)}…${payTo.slice(-4)}) on Base. The signature allows this one payment; it can take nothing else.`,
  );
  expect(waiting.text).toContain(
    `TransferWithAuthorization of 10000 (USDC counts in millionths) to ${payTo}`,
  );
  expect(waiting.text).toContain("its signing key is remembered from now on");
  expect(waiting.text).toContain("Cancel");
  await screenshot(dapp, "card-waiting-wallet");
  signature.open();
  const checking = await waitForBadge(dapp, (b) => b.state === "checking");
  expect(checking.text).toContain("Paid. Checking the address");
  paidRequest.open();
  const done = await waitForBadge(dapp, (b) => "verdict-level" in b.byTestId);
  expect(done.level).toBe("ok");
  await screenshot(dapp, "card-verdict-ok");
});
