import { describe, expect, it, vi } from "vitest";
import { createMessenger, type MessagingApi } from "../messaging/messenger";
import { memoryItem } from "../storage/memoryItem";
import type { HistoryEntry, PendingRecovery, PinnedKeys, SpendLedger } from "../storage/schemas";
import { createCheckService } from "./createCheckService";
import type { PaidCheckDeps } from "./runPaidCheck";

// The paid check is replaced by one that asks the click's wallet for two signatures, as a
// tampered flow would: the service itself must let only the first reach the tab.
const secondSignature = vi.hoisted(() => ({ error: null as unknown }));
vi.mock("./runPaidCheck", () => ({
  runPaidCheck: async (_request: unknown, deps: PaidCheckDeps) => {
    const typedData = { domain: {}, types: {}, primaryType: "Mail", message: {} };
    await deps.wallet.signTypedData(typedData);
    secondSignature.error = await deps.wallet.signTypedData(typedData).then(
      () => null,
      (error: unknown) => error,
    );
    return { type: "failed", message: "stopped by the test", charged: false };
  },
}));

describe("createCheckService: one click, one wallet signature", () => {
  it("refuses a second signature request of the same check before it reaches the tab", async () => {
    const signRequests: number[] = [];
    const api: MessagingApi = {
      runtime: {
        id: "presend-id",
        sendMessage: async () => ({ ok: true, data: null }),
        onMessage: { addListener: () => undefined, removeListener: () => undefined },
      },
      tabs: {
        sendMessage: async (tabId, message) => {
          if ((message as { type: string }).type === "wallet.sign") signRequests.push(tabId);
          return { ok: true, data: { signature: `0x${"11".repeat(65)}` } };
        },
        get: async (tabId) => ({ id: tabId }),
      },
    };
    const service = createCheckService({
      messenger: createMessenger(api),
      extensionOrigin: "chrome-extension://presend-id/",
      keepAlive: () => () => undefined,
      checks: {
        fetch: async () => new Response(null, { status: 500 }),
        settings: async () => ({
          apiUrl: "http://api.test",
          dailyCapUnits: 1_000_000,
          disabledSites: [],
        }),
        pinnedKeys: memoryItem<PinnedKeys>({}),
        ledger: memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: 0 }),
        history: memoryItem<HistoryEntry[]>([]),
        historyLimit: 50,
        recoveries: memoryItem<PendingRecovery[]>([]),
        now: () => new Date("2025-06-01T12:00:00Z"),
        randomId: () => "entry-1",
      },
    });
    await service.start(
      { session: "o".repeat(16), route: "check", address: `0x${"d8".repeat(20)}`, chain: "base" },
      { id: "presend-id", url: "https://dapp.example/send", tab: { id: 7 }, frameId: 0 },
    );
    expect(signRequests).toEqual([7]);
    expect(secondSignature.error).toMatchObject({ code: "not_allowed" });
  });
});
