import { decisionWords, kindInWords, plainWords } from "@presend/extension/ui/words";
import { approximateAmount } from "@presend/shared/verdict/approximateAmount";
import { expect, test } from "../fixtures/test";
import { badgeStyle, clickBadgeButton, onBadgeElement, waitForBadge } from "../helpers/badge";
import { activeEoa, demoAddress } from "../helpers/demo";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { balances, levelColour, pasteAndCheck, payerAndPayTo } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// Each paid flow runs the real chain: the built extension asks the real API for its 402, the
// test wallet signs the EIP-3009 authorization with the demo payer's key, the in-process
// facilitator settles it on the local Base chain, and the verdict comes from the real engine.

const levels = [
  { label: "active-eoa-on-base", level: "ok" },
  { label: "fresh-address", level: "caution" },
  { label: "contract-rejecting-eth-on-base", level: "warn" },
  { label: "usdc-contract-on-base", level: "danger" },
] as const;

for (const { label, level } of levels) {
  test(`check of ${label} shows the ${level} verdict with its colour, reasons, balances and gas; exactly $0.01 paid`, async ({
    api,
    dapp,
    wallet,
  }) => {
    const demo = demoAddress(api.world, label);
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);

    const badge = await pasteAndCheck(dapp, demo.address, "check");

    // Same engine, same cached facts (15 s TTL): what the server reported is what is shown.
    const expected = await api.server.engine.check({ address: demo.address, chain: "base" });
    if (expected.type !== "report") throw new Error("the engine could not read base");
    const { verdict, chain } = expected.report;
    expect(verdict.level).toBe(level);
    expect(badge.level).toBe(level);
    // Verdict first: the decision as the headline, in the verdict's one colour.
    expect(badge.byTestId["verdict-decision"]).toContain(decisionWords[level]);
    expect(await badgeStyle(dapp, "verdict-decision", "background-color")).toBe(levelColour(level));
    expect(await badgeStyle(dapp, "verdict-level", "background-color")).toBe(levelColour(level));
    expect(badge.byTestId["verdict-headline"]).toBe(plainWords(verdict.headline));
    expect(badge.byTestId["verdict-next"]).toBe(plainWords(verdict.next));
    for (const reason of verdict.reasons) expect(badge.text).toContain(plainWords(reason.message));
    // Nothing on a card that is not ok is in the ok colour (no green pill beside a red block).
    const colours = await onBadgeElement<string[]>(
      dapp,
      "card",
      `function () {
        return [...this.querySelectorAll("*")]
          .filter((e) => e.checkVisibility())
          .map((e) => getComputedStyle(e).backgroundColor);
      }`,
    );
    if (level === "ok") expect(colours).toContain(levelColour("ok"));
    else expect(colours).not.toContain(levelColour("ok"));
    await clickBadgeButton(dapp, "details");
    const details = await onBadgeElement<string[]>(
      dapp,
      "card",
      `function () {
        return [...this.querySelectorAll("*")]
          .filter((e) => e.checkVisibility())
          .map((e) => getComputedStyle(e).backgroundColor);
      }`,
    );
    if (level !== "ok") expect(details).not.toContain(levelColour("ok"));
    await screenshot(dapp, `verdict-${level}-details`);
    expect(badge.rows.base).toContain(kindInWords(chain));
    // The table shows six significant digits; the copied report keeps the exact amounts.
    if (chain.native)
      expect(badge.rows.base).toContain(`${approximateAmount(chain.native, 6)} ETH`);
    if (chain.usdc) expect(badge.rows.base).toContain(`${approximateAmount(chain.usdc, 6)} USDC`);
    expect(badge.text).toContain(plainWords(verdict.gas.summary));

    const after = await balances(api, who);
    expect(after.payer).toBe((before.payer ?? 0n) - 10_000n);
    expect(after.payTo).toBe((before.payTo ?? 0n) + 10_000n);
    expect(wallet.signRequests()).toHaveLength(1);
  });
}

test("deep check of an EOA active only on arbitrum: per-chain table, wrong-network and token-mismatch flags; exactly $0.05 paid", async ({
  api,
  dapp,
  wallet,
}) => {
  const demo = demoAddress(api.world, "eoa-active-on-arbitrum-only");
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, demo.address, "deep");

  const expected = await api.server.engine.deep({ address: demo.address, chain: "base" });
  if (expected.type !== "report") throw new Error("the engine could not read base");
  expect(badge.level).toBe("warn");
  expect(badge.byTestId["verdict-headline"]).toBe(plainWords(expected.report.verdict.headline));
  // Each finding once, in words; the table marks the chains the flags are about.
  expect(badge.reasons.wrong_network).toContain("active on Arbitrum One");
  expect(badge.rows.base).toContain("inactive here");
  expect(badge.rows.arbitrum).toContain("active here");
  const { tokenMismatch } = expected.report.verdict;
  expect(tokenMismatch.length).toBeGreaterThan(0);
  for (const flag of tokenMismatch) {
    for (const chain of flag.chains) {
      expect(badge.rows[chain]).toMatch(/token contract|holds stablecoins|bridged USDC/);
    }
  }
  for (const reason of expected.report.verdict.reasons) {
    expect(badge.text.split(plainWords(reason.message))).toHaveLength(2);
  }
  // One row per chain: the target first, then the four others.
  expect(Object.keys(badge.rows)).toEqual(["base", "ethereum", "arbitrum", "optimism", "polygon"]);
  const arbitrum = expected.report.others.find((facts) => facts.name === "arbitrum");
  expect(badge.rows.arbitrum).toContain(`| ${arbitrum?.outgoingTxs} |`);

  const after = await balances(api, who);
  expect(after.payer).toBe((before.payer ?? 0n) - 50_000n);
  expect(after.payTo).toBe((before.payTo ?? 0n) + 50_000n);
});

test("deep check of the USDC contract flags the token contract (token mismatch), danger", async ({
  api,
  dapp,
}) => {
  const demo = demoAddress(api.world, "usdc-contract-on-base");
  const badge = await pasteAndCheck(dapp, demo.address, "deep");
  expect(badge.level).toBe("danger");
  expect(badge.rows.base).toContain("token contract");
  expect(badge.text).not.toContain("inactive here");
});

test("copy report puts the server's plain-text report on the clipboard", async ({
  api,
  context,
  dapp,
  serviceWorker,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: new URL(dapp.url()).origin,
  });
  await pasteAndCheck(dapp, activeEoa(api.world), "check");
  await clickBadgeButton(dapp, "details");
  await clickBadgeButton(dapp, "copy");
  await waitForBadge(dapp, (b) => b.text.includes("Copied"));
  const [entry] = (await getExtensionStorage(serviceWorker, "history")) as Array<{
    report: { report: string };
  }>;
  const copied = await dapp.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(entry?.report.report);
  expect(copied).toContain("presend pre-send check");
});

test("a declined signature shows 'declined', charges nothing and leaves the cap untouched", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  wallet.state.rejectSignatures = true;
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

  expect(badge.state).toBe("rejected");
  expect(badge.text).toContain("You declined the payment in your wallet. Nothing was charged.");
  expect(wallet.signRequests()).toHaveLength(1);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toBeUndefined();
  expect(await getExtensionStorage(serviceWorker, "history")).toBeUndefined();
});

test("wallet on arbitrum, the switch to Base declined: the card says so and what to do, not that a payment was declined; nothing signed or charged", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  wallet.state.chainId = 42161;
  wallet.state.refuseSwitch = true;
  await dapp.reload();
  const who = { payer: wallet.account.address };
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.state).toBe("rejected");
  expect(badge.text).not.toContain("declined the payment");
  expect(badge.text).toContain("You declined to switch your wallet to Base.");
  expect(badge.text).toContain("accept the switch");
  expect(badge.text).toContain("Nothing was charged.");
  expect(wallet.requestsOf("wallet_switchEthereumChain")).toHaveLength(1);
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.state.chainId).toBe(42161);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toBeUndefined();
  await screenshot(dapp, "card-switch-declined");
});

test("wallet on arbitrum: the chain is preselected, the wallet switches to Base to sign and back", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.chainId = 42161;
  await dapp.reload();
  const demo = demoAddress(api.world, "eoa-active-on-arbitrum-only");
  const who = { payer: wallet.account.address };
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, demo.address, "check");
  expect(badge.chain).toBe("arbitrum");
  expect(badge.rows.arbitrum).toBeDefined();
  expect(badge.level).toBe("ok");
  const switches = wallet.requests
    .filter((r) => r.method === "wallet_switchEthereumChain")
    .map((r) => (r.params as Array<{ chainId: string }>)[0]?.chainId);
  expect(switches).toEqual(["0x2105", "0xa4b1"]);
  expect(wallet.state.chainId).toBe(42161);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
});
