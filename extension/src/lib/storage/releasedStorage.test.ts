import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import type { fakeBrowser as FakeBrowser } from "wxt/testing/fake-browser";

// What release 8ef3672 (2026-11-25) left in chrome.storage, read by this build. In
// releasedData/8ef3672/, storage.json was written by that revision's background code (its
// runPaidCheck, storage items and channel access on WXT's fake browser) paying that revision's
// server on local anvil chains: one check over a channel, then one exact check whose answer it
// lost (a pending recovery); receipt.json is what GET /receipts answers for that payment once the
// server is upgraded (captured from this server on that release's DATA_DIR, the same attestation
// key).
const released = join(import.meta.dirname, "releasedData/8ef3672");
const stored = JSON.parse(readFileSync(join(released, "storage.json"), "utf8")) as {
  local: Record<string, unknown>;
  session: Record<string, unknown>;
};
const receipt = readFileSync(join(released, "receipt.json"), "utf8");

let fakeBrowser: typeof FakeBrowser;

// WXT's storage reaches the browser through globalThis.chrome, read when it is first imported:
// the fake browser is in place before any item is.
beforeEach(async () => {
  ({ fakeBrowser } = await import("wxt/testing/fake-browser"));
  (globalThis as { chrome?: unknown }).chrome = fakeBrowser;
  fakeBrowser.reset();
  await fakeBrowser.storage.local.set(stored.local);
  await fakeBrowser.storage.session.set(stored.session);
});

describe("chrome.storage written by release 8ef3672", () => {
  it("reads every item as the release stored it: none falls back to its default", async () => {
    const items = await import("./items");
    const channelItems = await import("../channel/channelItems");
    const read: Record<string, unknown> = {
      history: await items.history.getValue(),
      pendingRecoveries: await items.pendingRecoveries.getValue(),
      settings: await items.settings.getValue(),
      pinnedAttestationKeys: await items.pinnedKeys.getValue(),
      spendLedger: await items.spendLedger.getValue(),
      channelBalances: await channelItems.channelBalances.getValue(),
    };
    expect(Object.keys(read).sort()).toEqual(Object.keys(stored.local).sort());
    for (const [key, value] of Object.entries(read)) expect(value, key).toEqual(stored.local[key]);
    expect(await channelItems.sessionKey.getValue()).toEqual(stored.session.channelSessionKey);
    expect(await channelItems.channelStates.getValue()).toEqual(stored.session.channelStates);
    expect(read.pendingRecoveries).toHaveLength(1);
  });

  it("fetches the report of the payment whose answer was lost, verified with the key the release pinned", async () => {
    const items = await import("./items");
    const [pending] = await items.pendingRecoveries.getValue();
    if (pending === undefined) throw new Error("the release's pending recovery was not read");
    const { outcome, asked } = await recover(pending.id);
    expect(asked).toEqual([
      expect.stringContaining(`/receipts/${pending.payer}/${pending.nonce}?signature=`),
    ]);
    expect(outcome).toMatchObject({
      type: "recovered",
      entry: { address: pending.address, chain: pending.chain, amount: pending.amount },
    });
    expect(await items.pendingRecoveries.getValue()).toEqual([]);
    expect((await items.history.getValue()).map((entry) => entry.id)).toEqual([
      "recovered",
      ...(stored.local.history as Array<{ id: string }>).map((entry) => entry.id),
    ]);
  });

  it("reads and recovers the pending payment beside entries another build wrote, and keeps those", async () => {
    // Entries of a shape this build cannot read (a build that renamed a field): left out when
    // read, never taking the readable ones with them, and still stored after every update.
    const foreignPending = { id: "later-build", apiUrl: "http://127.0.0.1", payerAddress: "0x1" };
    const foreignEntry = { id: "later-build-entry", level: "ok", reportV2: {} };
    await fakeBrowser.storage.local.set({
      pendingRecoveries: [foreignPending, ...(stored.local.pendingRecoveries as object[])],
      history: [foreignEntry, ...(stored.local.history as object[])],
    });
    const items = await import("./items");
    const [pending] = await items.pendingRecoveries.getValue();
    expect(pending).toEqual((stored.local.pendingRecoveries as object[])[0]);
    if (pending === undefined) throw new Error("the release's pending recovery was not read");
    const { outcome } = await recover(pending.id);
    expect(outcome).toMatchObject({ type: "recovered" });
    const after = await fakeBrowser.storage.local.get(["pendingRecoveries", "history"]);
    expect(after.pendingRecoveries).toEqual([foreignPending]);
    expect(after.history).toEqual([
      expect.objectContaining({ id: "recovered" }),
      ...(stored.local.history as object[]),
      foreignEntry,
    ]);
  });

  it("keeps the release's channel listed after an update empties session storage, its key ended", async () => {
    const channelItems = await import("../channel/channelItems");
    const { createChannelAccess } = await import("../channel/createChannelAccess");
    // Chrome clears storage.session when an extension updates: the session key goes with it.
    await fakeBrowser.storage.session.clear();
    const access = createChannelAccess({
      sessionKey: channelItems.sessionKey,
      states: channelItems.channelStates,
      salts: channelItems.channelSalts,
      balances: channelItems.channelBalances,
      now: () =>
        new Date(
          Date.parse((stored.local.channelBalances as [{ updatedAt: string }])[0].updatedAt) +
            60_000,
        ),
    });
    await access.markEndedSessions();
    expect(await channelItems.channelBalances.getValue()).toEqual([
      { ...(stored.local.channelBalances as object[])[0], sessionEnded: true },
    ]);
  });
});

/** The pending payment's report fetched through recoverReport, /receipts answering `receipt`. */
async function recover(pendingId: string) {
  const items = await import("./items");
  const { recoverReport } = await import("../payments/recoverReport");
  const asked: string[] = [];
  const outcome = await recoverReport(pendingId, {
    fetch: async (input) => {
      asked.push(String(input));
      return new Response(receipt, { headers: { "content-type": "application/json" } });
    },
    pinnedKeys: items.pinnedKeys,
    recoveries: items.pendingRecoveries,
    history: items.history,
    historyLimit: items.historyLimit,
    ledger: items.spendLedger,
    // The answer above is the server's; the payer's proof only reaches it.
    signMessage: async () => `0x${"11".repeat(65)}`,
    now: () => new Date(),
    randomId: () => "recovered",
  });
  return { outcome, asked };
}
