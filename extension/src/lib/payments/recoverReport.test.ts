import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { MessageError } from "../messaging/MessageError";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { memoryItem } from "../storage/memoryItem";
import type { HistoryEntry, PendingRecovery, PinnedKeys, SpendLedger } from "../storage/schemas";
import { createPendingSpend } from "./createPendingSpend";
import { type FakePaidApiOptions, fakePaidApi } from "./fakePaidApi";
import { recoverReport } from "./recoverReport";
import { runPaidCheck } from "./runPaidCheck";

const payer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const someoneElse = privateKeyToAccount(
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
);
const payTo: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = new Date("2025-06-01T12:00:00Z");
const { report } = exampleHistoryEntry({ address, checkedAt: now });

// A paid check whose answer was a 502 settlement_unknown, paid through the real client against
// an API that signs like the server; then its report fetched again as the person's click does.
async function lostCheck(receipts: FakePaidApiOptions["receipts"] = "settled") {
  const api = await fakePaidApi({ payTo, report, now, afterPayment: "unknown", receipts });
  const pinnedKeys = memoryItem<PinnedKeys>({});
  const recoveries = memoryItem<PendingRecovery[]>([]);
  const history = memoryItem<HistoryEntry[]>([]);
  const ledger = memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: 0 });
  let ids = 0;
  const shared = {
    fetch: api.fetch,
    pinnedKeys,
    recoveries,
    history,
    ledger,
    historyLimit: 50,
    now: () => now,
    randomId: () => `id-${++ids}`,
  };
  const outcome = await runPaidCheck(
    { route: "check", address, chain: "base" },
    {
      ...shared,
      settings: async () => ({
        apiUrl: "http://api.test",
        dailyCapUnits: 1_000_000,
        disabledSites: [],
      }),
      pending: createPendingSpend(),
      wallet: {
        account: async () => payer.address,
        signTypedData: (typedData) => payer.signTypedData(typedData as never) as Promise<Hex>,
        call: async () => {
          throw new Error("No chain read expected.");
        },
      },
      progress: () => undefined,
    },
  );
  if (outcome.type !== "failed" || outcome.recoveryId === undefined) {
    throw new Error(`expected a recoverable failure, got ${outcome.type}`);
  }
  const signMessage = vi.fn(async (_account: Address, message: string) =>
    payer.signMessage({ message }),
  );
  return {
    api,
    recoveryId: outcome.recoveryId,
    recoveries,
    history,
    ledger,
    pinnedKeys,
    deps: { ...shared, signMessage },
  };
}

describe("recoverReport", () => {
  it("fetches the report by payer and nonce with the payer's signature, verifies it, and files it in the history", async () => {
    const { recoveryId, recoveries, history, deps, api } = await lostCheck();
    const { nonce } = recoveries.value()[0] as PendingRecovery;
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("recovered");
    expect(deps.signMessage).toHaveBeenCalledWith(payer.address, `presend receipt ${nonce}`);
    expect(api.requests.at(-1)?.url).toMatch(
      new RegExp(`/receipts/${payer.address}/${nonce}\\?signature=0x`, "i"),
    );
    expect(history.value()[0]).toMatchObject({
      address,
      level: "ok",
      transaction: `0x${"ab".repeat(32)}`,
      amount: "10000",
    });
    expect(recoveries.value()).toEqual([]);
  });

  it("says the chain has not decided yet on 409, and keeps the payment to try again", async () => {
    const { recoveryId, recoveries, history, deps } = await lostCheck("pending");
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("pending");
    expect(outcome.type === "pending" && outcome.message).not.toMatch(/nothing was charged/i);
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "pending" });
    expect(history.value()).toEqual([]);
  });

  it("refuses a stored report whose signature does not verify with the pinned key", async () => {
    const { recoveryId, recoveries, history, deps } = await lostCheck("forged");
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("forged");
    expect(history.value()).toEqual([]);
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "forged" });
  });

  it("refuses a verified report about another address than the check paid for, and keeps the payment", async () => {
    const { recoveryId, recoveries, history, deps } = await lostCheck();
    // The payment was for another address than the one the server's stored report is about.
    const asked: Address = "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7";
    await recoveries.update((list) => list.map((r) => ({ ...r, address: asked })));
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("forged");
    expect(outcome.type === "forged" && outcome.message).toMatch(/another address/);
    expect(history.value()).toEqual([]);
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "forged" });
  });

  it("refuses a verified report about another chain than the check paid for, and keeps the payment", async () => {
    const { recoveryId, recoveries, history, deps } = await lostCheck();
    // The payment was for the same address on another network than the stored report's.
    const other = report.chain.name === "ethereum" ? "base" : "ethereum";
    await recoveries.update((list) => list.map((r) => ({ ...r, chain: other })));
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("forged");
    expect(outcome.type === "forged" && outcome.message).toMatch(/another network/);
    expect(history.value()).toEqual([]);
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "forged" });
  });

  it("refuses a report signed by another key than the one pinned when paying", async () => {
    const { recoveryId, history, deps, pinnedKeys } = await lostCheck();
    const other = await fakePaidApi({ payTo, report, now });
    await pinnedKeys.update((pins) => ({
      "http://api.test": { ...(pins["http://api.test"] as PinnedKeys[string]), jwk: other.key },
    }));
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("forged");
    expect(history.value()).toEqual([]);
  });

  it("says nothing was charged only when the server proves the authorization never settled (404)", async () => {
    const { recoveryId, recoveries, deps } = await lostCheck("missing");
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("not_charged");
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "not_charged" });
  });

  it("gives the daily cap back a payment it counted once the server proves it never settled, once", async () => {
    const { recoveryId, recoveries, ledger, deps } = await lostCheck("missing");
    // The lost check counted its price when it was sent.
    expect(ledger.value()).toEqual({ day: "2025-06-01", spentUnits: 10_000 });
    expect(recoveries.value()[0]?.countedOn).toBe("2025-06-01");
    expect((await recoverReport(recoveryId, deps)).type).toBe("not_charged");
    expect(ledger.value()).toEqual({ day: "2025-06-01", spentUnits: 0 });
    expect(recoveries.value()[0]?.countedOn).toBeUndefined();
    // Another check counted meanwhile is not given back by a second fetch of the same proof.
    await ledger.setValue({ day: "2025-06-01", spentUnits: 10_000 });
    expect((await recoverReport(recoveryId, deps)).type).toBe("not_charged");
    expect(ledger.value()).toEqual({ day: "2025-06-01", spentUnits: 10_000 });
  });

  it("leaves the cap alone for a payment the ledger never counted, or counted on a past day", async () => {
    const { recoveryId, recoveries, ledger, deps } = await lostCheck("missing");
    // The background stopped between writing the recovery and counting it.
    await recoveries.update((list) => list.map(({ countedOn: _, ...r }) => r));
    expect((await recoverReport(recoveryId, deps)).type).toBe("not_charged");
    expect(ledger.value()).toEqual({ day: "2025-06-01", spentUnits: 10_000 });
    const next = await lostCheck("missing");
    await next.ledger.setValue({ day: "2025-06-02", spentUnits: 10_000 });
    expect((await recoverReport(next.recoveryId, next.deps)).type).toBe("not_charged");
    expect(next.ledger.value()).toEqual({ day: "2025-06-02", spentUnits: 10_000 });
  });

  it("keeps the cap counting a payment whose report came back or whose charge is still unknown", async () => {
    const settled = await lostCheck();
    expect((await recoverReport(settled.recoveryId, settled.deps)).type).toBe("recovered");
    expect(settled.ledger.value().spentUnits).toBe(10_000);
    const pending = await lostCheck("pending");
    expect((await recoverReport(pending.recoveryId, pending.deps)).type).toBe("pending");
    expect(pending.ledger.value().spentUnits).toBe(10_000);
    expect(pending.recoveries.value()[0]?.countedOn).toBe("2025-06-01");
  });

  it("asks for the paying account when the wallet signs with another one (403)", async () => {
    const { recoveryId, recoveries, deps } = await lostCheck();
    deps.signMessage.mockImplementation(async (_account, message) =>
      someoneElse.signMessage({ message }),
    );
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome).toMatchObject({ type: "failed" });
    expect(outcome.type === "failed" && outcome.message).toContain(payer.address);
    expect(recoveries.value()).toHaveLength(1);
  });

  it("reports a refusal relayed by the page bridge (MessageError rejected) as rejected", async () => {
    const { recoveryId, deps } = await lostCheck();
    deps.signMessage.mockRejectedValue(new MessageError({ code: "rejected", message: "declined" }));
    expect((await recoverReport(recoveryId, deps)).type).toBe("rejected");
  });

  it("reports a declined signature as rejected and keeps the payment", async () => {
    const { recoveryId, recoveries, deps, api } = await lostCheck();
    const before = api.requests.length;
    deps.signMessage.mockRejectedValue(Object.assign(new Error("declined"), { code: 4001 }));
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("rejected");
    expect(api.requests.length).toBe(before);
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "rejected" });
  });

  it("never pins a key while recovering: without the pin of the payment it refuses to trust", async () => {
    const { recoveryId, deps, pinnedKeys, history } = await lostCheck();
    await pinnedKeys.setValue({});
    const outcome = await recoverReport(recoveryId, deps);
    expect(outcome.type).toBe("failed");
    expect(pinnedKeys.value()).toEqual({});
    expect(history.value()).toEqual([]);
  });

  it("answers an unknown recovery id without asking the wallet", async () => {
    const { deps } = await lostCheck();
    expect((await recoverReport("nope", deps)).type).toBe("failed");
    expect(deps.signMessage).not.toHaveBeenCalled();
  });
});
