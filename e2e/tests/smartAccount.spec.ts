import {
  artifacts,
  devnetAccounts,
  devnetClient,
  devnetPrivateKey,
  lookalikeOf,
} from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { type Address, encodeFunctionData, erc20Abi, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import { clickBadgeButton, finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { setExtensionSettings } from "../helpers/extensionStorage";
import { afterCharge, balances, pasteAndCheck, pasteAndClick } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";
import { smartAccountWallet } from "../helpers/smartAccountWallet";

// The person's wallet is a smart account (Coinbase-Smart-Wallet-like, on the local Base chain):
// eth_accounts answers a contract's address, and its signatures are the owner's wrapped for the
// account's ERC-1271 check. The local USDC asks a contract signer through ERC-1271, as USDC does.

const price = 10_000n;

test.describe("a deployed smart account", () => {
  test.use({
    wallet: async ({ presend }, use) => {
      await use(
        await smartAccountWallet(presend.world, {
          label: "deployed",
          deployed: true,
          usdc: 1_000_000n,
        }),
      );
    },
  });

  test("pays a check with its ERC-1271 signature (charged once, report shown); an answer lost after the charge is fetched through /receipts with its message signature", async ({
    api,
    dapp,
    wallet,
    serviceWorker,
    startProxy,
  }) => {
    test.setTimeout(90_000);
    const payer = wallet.address;
    expect(payer).not.toBe(wallet.account.address);
    const who = { payer, payTo: api.world.accounts.payTo.address };
    const before = await balances(api, who);
    // The API behind a proxy that can lose a paid answer after the server charged it.
    const proxy = await startProxy(api.url);
    await setExtensionSettings(serviceWorker, { apiUrl: proxy.url });

    const paid = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(paid.level, JSON.stringify(paid.state)).toBe("ok");
    expect(await balances(api, who)).toEqual(afterCharge(before, price));
    expect(wallet.signRequests()).toHaveLength(1);
    await screenshot(dapp, "smart-account-paid");

    // The paid answer is lost after the charge: the report is fetched on the person's click,
    // proven by the account's personal_sign (an ERC-1271 signature the server checks on Base).
    proxy.losePaidAnswer = true;
    const target = randomAddress();
    await pasteAndClick(dapp, target, "check");
    const lost = await waitForBadge(dapp, (b) => b.state === "failed", 30_000);
    expect(lost.text).not.toMatch(/nothing was charged/i);
    expect(lost.byTestId.recovery).toContain("Fetch my report");
    proxy.losePaidAnswer = false;
    await clickBadgeButton(dapp, "fetch-report");
    const recovered = await waitForBadge(dapp, (b) => "verdict-level" in b.byTestId, 30_000);
    expect(recovered.byTestId.address).toBe(target);
    expect(wallet.messageSignRequests()).toHaveLength(1);
    expect(await balances(api, who)).toEqual(afterCharge(before, 2n * price));
    await screenshot(dapp, "smart-account-report-fetched-again");
  });

  test("opens a channel with its ERC-1271 deposit signature, then pays by voucher with no prompt", async ({
    api,
    dapp,
    wallet,
    serviceWorker,
    startSibling,
  }) => {
    test.setTimeout(90_000);
    const channels = await startSibling({
      CHANNELS: "on",
      RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-smart-account"),
    });
    await setExtensionSettings(serviceWorker, { apiUrl: channels.url });
    const payer = wallet.address;
    const before = await api.usdcOnBase(payer);
    const first = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(first.level, JSON.stringify(first.state)).toBe("ok");
    const deposited = before - (await api.usdcOnBase(payer));
    expect(deposited).toBeGreaterThan(price);
    const second = await pasteAndCheck(dapp, randomAddress(), "check");
    expect(second.level, JSON.stringify(second.state)).toBeTruthy();
    expect(wallet.signRequests()).toHaveLength(1);
    expect(before - (await api.usdcOnBase(payer))).toBe(deposited);
    await screenshot(dapp, "smart-account-channel");
  });

  test("as the sender, its own history is read: a lookalike planted in it says Don't send", async ({
    api,
    dapp,
    wallet,
    serviceWorker,
  }) => {
    test.setTimeout(90_000);
    const account = wallet.address;
    const base = devnetClient("base", api.world.chains.base.rpcUrl);
    const usdc = chains.base.usdc.address;
    const genuine = privateKeyToAccount(devnetPrivateKey("e2e-smart-account-counterparty")).address;
    // The account pays its counterparty three times (the owner calls execute, as its wallet
    // does through the EntryPoint); a poisoner plants a zero-value transfer to a lookalike.
    await base.setBalance({ address: wallet.account.address, value: parseEther("1") });
    for (let payment = 0; payment < 3; payment++) {
      await base.confirm(
        base.writeContract({
          account: wallet.account,
          address: account,
          abi: artifacts.DemoCoinbaseSmartWallet.abi,
          functionName: "execute",
          args: [
            usdc,
            0n,
            encodeFunctionData({
              abi: erc20Abi,
              functionName: "transfer",
              args: [genuine, 20_000n],
            }),
          ],
        }),
      );
    }
    const lookalike: Address = lookalikeOf(genuine, "e2e-smart-account");
    await base.confirm(
      base.writeContract({
        account: privateKeyToAccount(devnetAccounts.poisoner.privateKey),
        address: usdc,
        abi: erc20Abi,
        functionName: "transferFrom",
        args: [account, lookalike, 0n],
      }),
    );

    // The server reads at the head it learned within its facts cache's TTL (15 s): the history
    // just written shows once that head is past it, as for any sender.
    await expect
      .poll(
        async () => {
          const read = await api.server.engine.check({
            address: lookalike,
            chain: "base",
            from: account,
          });
          return read.type === "report" ? read.report.verdict.level : read.type;
        },
        { timeout: 40_000, intervals: [1_000] },
      )
      .toBe("danger");
    await setExtensionSettings(serviceWorker, { apiUrl: api.url, checkAsPayer: true });
    const badge = await pasteAndCheck(dapp, lookalike, "check");
    expect(badge.level, JSON.stringify(badge.state)).toBe("danger");
    expect(badge.byTestId["lookalike-genuine"]).toBe(genuine);
    expect(badge.byTestId["verdict-sender"]).toContain("your own payment history on Base was read");
    await screenshot(dapp, "smart-account-poisoning");
  });
});

test.describe("a counterfactual smart account (not deployed: ERC-6492 signatures)", () => {
  test.use({
    wallet: async ({ presend }, use) => {
      await use(
        await smartAccountWallet(presend.world, {
          label: "counterfactual",
          deployed: false,
          usdc: 1_000_000n,
        }),
      );
    },
  });

  test("is refused before any charge, and told to deploy the account first or use another", async ({
    api,
    dapp,
    wallet,
  }) => {
    const payer = wallet.address;
    const who = { payer, payTo: api.world.accounts.payTo.address };
    const before = await balances(api, who);
    await pasteAndClick(dapp, activeEoa(api.world), "check");
    const refused = await waitForBadge(dapp, finished, 30_000);
    expect(refused.state).toBe("failed");
    expect(refused.text).toContain("smart account that is not deployed on Base yet");
    expect(refused.text).toContain("Make one transaction with this account on Base first");
    expect(refused.text).not.toContain("eip6492");
    expect(wallet.signRequests()).toHaveLength(1);
    expect(await balances(api, who)).toEqual(before);
    await screenshot(dapp, "smart-account-counterfactual-refused");
  });
});
