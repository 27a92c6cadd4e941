import { devnetPrivateKey } from "@presend/devnet";
import { generatePrivateKey } from "viem/accounts";
import { expect, test } from "../fixtures/test";
import { createTestWallet } from "../fixtures/testWallet";
import { closedPort, randomAddress } from "../helpers/addresses";
import { clickBadgeButton, finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import {
  getExtensionStorage,
  setExtensionSettings,
  setExtensionStorage,
} from "../helpers/extensionStorage";
import { afterCharge, balances, pasteAndCheck, pasteAndClick } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { expectSpentToday } from "../helpers/spentToday";

test("daily cap reached: the next check is refused with the amounts, nothing signed or charged", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  await setExtensionSettings(serviceWorker, { apiUrl: api.url, dailyCapUnits: 50_000 });
  const who = { payer: wallet.account.address };
  const before = await balances(api, who);

  const deep = await pasteAndCheck(dapp, activeEoa(api.world), "deep");
  expect(deep.level).toBe("ok");
  const next = await pasteAndCheck(dapp, randomAddress(), "check");

  expect(next.state).toBe("refused");
  expect(next.code).toBe("cap_reached");
  expect(next.text).toContain("Today's spending cap of $0.05 is used up ($0.05 spent).");
  // When "today" ends, on the person's clock: the cap counts UTC days.
  expect(next.text).toMatch(
    /It starts again at [^;]*midnight UTC\)?; raise it in the settings to pay before then\./,
  );
  expect(wallet.signRequests()).toHaveLength(1);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 50_000n);
});

test("a corrupt spend ledger refuses to pay (never read as $0) until the person resets it in the options", async ({
  api,
  context,
  dapp,
  extensionId,
  wallet,
  serviceWorker,
}) => {
  await setExtensionStorage(serviceWorker, { spendLedger: { day: "today", spentUnits: -1 } });
  const who = { payer: wallet.account.address };
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

  expect(badge.state).toBe("refused");
  expect(badge.code).toBe("ledger_unreadable");
  expect(wallet.signRequests()).toEqual([]);
  expect(await balances(api, who)).toEqual(before);

  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.getByRole("button", { name: "Reset spending record" }).click();
  await expectSpentToday(options, "$0.00 of $1.00 spent today (UTC).");
  const again = await pasteAndCheck(dapp, randomAddress(), "check");
  expect(again.level).toBe("caution");
});

test("a check the server cannot make (polygon unreadable: 503) fails, says nothing was charged, and is not charged", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  startSibling,
}) => {
  const broken = await startSibling({
    RPC_URLS_POLYGON: `http://127.0.0.1:${await closedPort()}`,
  });
  await setExtensionSettings(serviceWorker, { apiUrl: broken.url });
  // The dApp's wallet is on polygon, so the badge checks polygon.
  wallet.state.chainId = 137;
  await dapp.reload();
  const who = { payer: wallet.account.address, payTo: broken.payTo };
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

  expect(badge.chain).toBe("polygon");
  expect(badge.state).toBe("failed");
  expect(badge.text).toContain("Nothing was charged.");
  expect(badge.text).toMatch(/polygon/i);
  // The wallet did sign (the 402 came first); the server skipped settlement.
  expect(wallet.signRequests()).toHaveLength(1);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toMatchObject({ spentUnits: 0 });
  expect(wallet.state.chainId).toBe(137);
});

test("a check that would pass the cap says how much is left, not that the cap is reached", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  await setExtensionSettings(serviceWorker, { apiUrl: api.url, dailyCapUnits: 30_000 });
  expect((await pasteAndCheck(dapp, activeEoa(api.world), "check")).level).toBe("ok");
  const deep = await pasteAndCheck(dapp, randomAddress(), "deep");
  expect(deep.code).toBe("cap_reached");
  expect(deep.text).toContain(
    "This check costs $0.05, more than the $0.02 left of today's $0.03 cap ($0.01 spent).",
  );
  expect(deep.text).not.toContain("used up");
  expect(wallet.signRequests()).toHaveLength(1);
  // The settings are one click away from the refusal.
  await clickBadgeButton(dapp, "settings");
  await expect
    .poll(() =>
      dapp
        .context()
        .pages()
        .some((p) => p.url().endsWith("/options.html")),
    )
    .toBe(true);
});

// A wallet of its own that holds no USDC anywhere (a new key), in place of the funded demo payer.
const withoutUsdc = test.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form.
  wallet: async ({}, use) => {
    await use(createTestWallet({ privateKey: generatePrivateKey() }));
  },
});

withoutUsdc(
  "a wallet without USDC on Base is told so and what to do, not 'HTTP 402'; nothing charged",
  async ({ api, dapp, wallet, serviceWorker }) => {
    expect(await api.usdcOnBase(wallet.account.address)).toBe(0n);
    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

    expect(badge.state).toBe("failed");
    expect(badge.text).not.toContain("HTTP 402");
    expect(badge.text).toContain("does not hold enough USDC on Base");
    expect(badge.text).toContain("Add USDC on Base");
    expect(badge.text).toContain("Nothing was charged.");
    // The wallet signed (the server verifies the balance after the signature); nothing moved.
    expect(wallet.signRequests()).toHaveLength(1);
    expect(await getExtensionStorage(serviceWorker, "spendLedger")).toMatchObject({
      spentUnits: 0,
    });
    await screenshot(dapp, "card-insufficient-usdc");
  },
);

withoutUsdc(
  "a channel deposit from a wallet without USDC on Base is told so and what to do; nothing charged, no channel kept",
  async ({ api, dapp, wallet, serviceWorker, startSibling }) => {
    const channels = await startSibling({
      CHANNELS: "on",
      RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-no-usdc"),
    });
    await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

    expect(badge.state).toBe("failed");
    expect(badge.text).toContain("does not hold enough USDC on Base");
    expect(badge.text).toContain("Nothing was charged.");
    expect(wallet.signRequests()).toHaveLength(1);
    expect(await getExtensionStorage(serviceWorker, "spendLedger")).toMatchObject({
      spentUnits: 0,
    });
    expect(await getExtensionStorage(serviceWorker, "channelBalances")).toEqual([]);
  },
);

test("two exact checks clicked in two tabs at once, one wallet: both prompts open together, both settle, each verdict in its own tab, the cap counts both", async ({
  api,
  context,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = { payer: wallet.account.address, payTo: api.world.accounts.payTo.address };
  const before = await balances(api, who);
  const other = await context.newPage();
  await other.exposeFunction("__testWallet", (method: string, params: string) =>
    wallet.bridge(method, params),
  );
  await other.goto(dapp.url());
  // The person has not signed either yet.
  let sign: () => void = () => undefined;
  wallet.state.holdSignatures = new Promise<void>((resolve) => {
    sign = resolve;
  });
  const [first, second] = [randomAddress(), randomAddress()];
  await dapp.bringToFront();
  await pasteAndClick(dapp, first, "check");
  await other.bringToFront();
  await pasteAndClick(other, second, "deep");
  // Each tab asks its wallet: neither waits for the other's signature.
  await expect.poll(() => wallet.signRequests().length, { timeout: 20_000 }).toBe(2);
  sign();
  wallet.state.holdSignatures = null;

  const [one, two] = [
    await waitForBadge(dapp, finished, 30_000),
    await waitForBadge(other, finished, 30_000),
  ];
  expect(one.byTestId.address).toBe(first);
  expect(one.level, JSON.stringify(one.text)).toBe("caution");
  expect(two.byTestId.address).toBe(second);
  expect(two.level, JSON.stringify(two.text)).toBe("caution");
  const filed = (await getExtensionStorage(serviceWorker, "history")) as {
    address: string;
    route: string;
  }[];
  expect(filed.map((e) => [e.address, e.route]).sort()).toEqual(
    [
      [first, "check"],
      [second, "deep"],
    ].sort(),
  );
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toMatchObject({
    spentUnits: 60_000,
  });
  expect(await balances(api, who)).toEqual(afterCharge(before, 60_000n));
  await other.close();
});
