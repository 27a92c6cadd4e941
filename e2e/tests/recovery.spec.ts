import type { HistoryEntry, PendingRecovery } from "@presend/extension/storage/schemas";
import { startFaultyRpc } from "@presend/server/testing";
import { hexToString } from "viem";
import { expect, test } from "../fixtures/test";
import { clickBadgeButton, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import { afterCharge, balances, pasteAndClick } from "../helpers/paidCheck";
import { openPopup, tabWithWallet } from "../helpers/popup";
import { screenshot } from "../helpers/screenshot";

// The payment chain goes down right after the settlement is broadcast: the transfer is on
// chain, the server cannot see it and answers 502 settlement_unknown. The extension says
// "charged: unknown", keeps the payment, and on the person's click fetches the report through
// /receipts with the payer's signature, once the server's reconciliation has read the chain.

test("a charged check whose answer is lost is recovered on click with the payer's signature: charged once, report verified", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
  context,
  extensionId,
  startSibling,
}) => {
  test.setTimeout(120_000);
  const rpc = await startFaultyRpc(api.world.chains.base.rpcUrl);
  try {
    const sibling = await startSibling(
      {},
      { paymentRpcUrl: rpc.url, confirmationTimeoutMs: 3_000 },
    );
    await setExtensionSettings(serviceWorker, { apiUrl: sibling.url });
    const who = { payer: wallet.account.address, payTo: sibling.payTo };
    const before = await balances(api, who);
    const target = activeEoa(api.world);

    rpc.mode = "downAfterSend";
    await pasteAndClick(dapp, target, "check");
    const lost = await waitForBadge(dapp, (b) => b.state === "failed", 45_000);
    expect(lost.text).toContain("whether it settled is unknown");
    expect(lost.text).not.toMatch(/nothing was charged/i);
    expect(lost.byTestId.recovery).toContain("Fetch my report");
    // The chain, read directly, shows the charge the server could not see.
    expect(await balances(api, who)).toEqual(afterCharge(before, 10_000n));
    const [waiting] = (await getExtensionStorage(
      serviceWorker,
      "pendingRecoveries",
    )) as PendingRecovery[];
    expect(waiting).toMatchObject({
      payer: wallet.account.address,
      address: target,
      chain: "base",
      route: "check",
      amount: "10000",
      transaction: null,
      apiUrl: sibling.url,
    });
    await screenshot(dapp, "recovery-charged-unknown");

    // While Base is still down, the server cannot say yet: the person may try again later.
    await clickBadgeButton(dapp, "fetch-report");
    const notYet = await waitForBadge(
      dapp,
      (b) => b.byTestId["recovery-result"]?.includes("Checking the chain") ?? false,
      20_000,
    );
    expect(notYet.text).not.toMatch(/nothing was charged/i);
    const [proof] = wallet.messageSignRequests();
    const signed = (proof?.params as [`0x${string}`] | undefined)?.[0] ?? "0x";
    expect(hexToString(signed)).toBe(`presend receipt ${waiting?.nonce}`);
    expect(wallet.signRequests()).toHaveLength(1);
    await screenshot(dapp, "recovery-checking-the-chain");

    // The pending payment survives the card: the popup lists it with its last attempt.
    const popup = await openPopup(context, extensionId, await tabWithWallet(serviceWorker));
    const entry = popup.getByTestId("recovery-entry");
    await expect(entry).toContainText(target);
    await expect(entry.getByTestId("recovery-result")).toContainText("Checking the chain");
    await expect(entry.getByRole("button", { name: "Try again" })).toBeVisible();
    await screenshot(popup, "popup-recovery-waiting");

    // Base answers again; the server's reconciliation (every 30 s, run now) reads the transfer.
    rpc.mode = "pass";
    await sibling.reconcile();
    await dapp.bringToFront();
    await clickBadgeButton(dapp, "fetch-report");
    const recovered = await waitForBadge(dapp, (b) => "verdict-level" in b.byTestId, 20_000);
    expect(recovered.level).toBe("ok");
    expect(recovered.byTestId["verdict-headline"]).toBeTruthy();
    expect(wallet.messageSignRequests()).toHaveLength(2);
    const [filed] = (await getExtensionStorage(serviceWorker, "history")) as HistoryEntry[];
    expect(filed).toMatchObject({ address: target, amount: "10000", payTo: sibling.payTo });
    expect(filed?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await getExtensionStorage(serviceWorker, "pendingRecoveries")).toEqual([]);
    await expect(popup.getByTestId("recoveries")).toHaveCount(0);
    await expect(popup.getByTestId("history-entry").first()).toContainText(target);
    // Charged once in all: recovering paid nothing more.
    expect(await balances(api, who)).toEqual(afterCharge(before, 10_000n));
    await screenshot(dapp, "recovery-recovered");
    // On a phone the recovered verdict fits the card like any other.
    await dapp.setViewportSize({ width: 360, height: 640 });
    await waitForBadge(dapp, (b) => "verdict-level" in b.byTestId);
    await screenshot(dapp, "recovery-recovered-360x640");
    await popup.close();
  } finally {
    rpc.mode = "pass";
    await rpc.close();
  }
});
