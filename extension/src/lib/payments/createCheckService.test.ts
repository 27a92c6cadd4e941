import type { TypedDataDefinition } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { parseWithBigints } from "../bridge/jsonWithBigints";
import type { ChannelBalance } from "../channel/channelBalances";
import type { ChannelSessionKey } from "../channel/channelItems";
import { type ChannelAccess, createChannelAccess } from "../channel/createChannelAccess";
import { createMessenger, type MessageSender, type MessagingApi } from "../messaging/messenger";
import type { CheckStart } from "../messaging/protocol";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { memoryItem } from "../storage/memoryItem";
import type { HistoryEntry, PendingRecovery, PinnedKeys, SpendLedger } from "../storage/schemas";
import { createCheckService } from "./createCheckService";
import { fakePaidApi } from "./fakePaidApi";

const payer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = new Date("2025-06-01T12:00:00Z");
const extensionOrigin = "chrome-extension://presend-id/";
const { report } = exampleHistoryEntry({ address, checkedAt: now });

type Delivered = { tabId: number | null; frameId: number | null; type: string; data: unknown };

// The browser as the background sees it: the content script of any tab answers with the page
// wallet (which signs with a real key), extension pages take progress messages.
async function setup(
  options: {
    dailyCapUnits?: number;
    afterPayment?: "report" | "unknown";
    channel?: ChannelAccess;
    /** Awaited before the wallet answers a signature request. */
    beforeSigning?: () => Promise<void>;
    /** The tab shows another page by the time the signature is asked (it refuses: page_left). */
    pageLeftBeforeSigning?: boolean;
  } = {},
) {
  const delivered: Delivered[] = [];
  // The key of the document the tab shows (its content script's).
  const answeringDocument = "a".repeat(32);
  const answer = async ({ type, data }: { type: string; data: Record<string, unknown> }) => {
    if (type === "wallet.account") {
      return { ok: true, data: { address: payer.address, document: answeringDocument } };
    }
    if (type === "wallet.signMessage") {
      return {
        ok: true,
        data: { signature: await payer.signMessage({ message: String(data.message) }) },
      };
    }
    if (type === "wallet.sign") {
      if (options.pageLeftBeforeSigning) {
        return { ok: false, error: { code: "page_left", message: "Another page now." } };
      }
      await options.beforeSigning?.();
      const typedData = parseWithBigints(String(data.typedData)) as TypedDataDefinition;
      return { ok: true, data: { signature: await payer.signTypedData(typedData) } };
    }
    return { ok: true, data: null };
  };
  const api: MessagingApi = {
    runtime: {
      id: "presend-id",
      sendMessage: async (message) => {
        const envelope = message as { type: string; data: Record<string, unknown> };
        delivered.push({ tabId: null, frameId: null, ...envelope });
        return answer(envelope);
      },
      onMessage: { addListener: () => undefined, removeListener: () => undefined },
    },
    tabs: {
      sendMessage: async (tabId, message, target) => {
        const envelope = message as { type: string; data: Record<string, unknown> };
        delivered.push({ tabId, frameId: target?.frameId ?? 0, ...envelope });
        return answer(envelope);
      },
      get: async (tabId) => ({ id: tabId }),
    },
  };
  const paidApi = await fakePaidApi({
    payTo,
    report,
    now,
    afterPayment: options.afterPayment ?? "report",
  });
  const recoveries = memoryItem<PendingRecovery[]>([]);
  const ledger = memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: 0 });
  const history = memoryItem<HistoryEntry[]>([]);
  let alive = 0;
  const service = createCheckService({
    messenger: createMessenger(api),
    extensionOrigin,
    ...(options.channel && { channel: options.channel }),
    keepAlive: () => {
      alive++;
      return () => {
        alive--;
      };
    },
    checks: {
      fetch: paidApi.fetch,
      settings: async () => ({
        apiUrl: "http://api.test",
        dailyCapUnits: options.dailyCapUnits ?? 1_000_000,
        disabledSites: [],
      }),
      pinnedKeys: memoryItem<PinnedKeys>({}),
      ledger,
      history,
      historyLimit: 50,
      recoveries,
      now: () => now,
      randomId: () => "entry-1",
    },
  });
  const walletCalls = () => delivered.filter((d) => d.type.startsWith("wallet."));
  return { service, delivered, walletCalls, ledger, history, recoveries, alive: () => alive };
}

const request = (session: string, extra: Partial<CheckStart> = {}): CheckStart => ({
  session,
  route: "check",
  address,
  chain: "base",
  ...extra,
});
const contentScript = (tabId: number, frameId = 0): MessageSender => ({
  id: "presend-id",
  url: "https://dapp.example/send",
  tab: { id: tabId },
  frameId,
});
const popupPage: MessageSender = { id: "presend-id", url: `${extensionOrigin}popup.html` };

describe("createCheckService", () => {
  it("asks every wallet request of a badge's check of the document it was clicked in", async () => {
    const { service, walletCalls } = await setup();
    const clickedIn = "c".repeat(32);
    const outcome = await service.start(
      request("s".repeat(16), { document: clickedIn }),
      contentScript(7),
    );
    expect(outcome.type).toBe("report");
    expect(walletCalls().map((d) => [d.type, (d.data as { document?: string }).document])).toEqual([
      ["wallet.account", clickedIn],
      ["wallet.sign", clickedIn],
    ]);
  });

  it("binds a popup's check to the document that shared the account", async () => {
    const { service, walletCalls } = await setup();
    const outcome = await service.start(
      request("s".repeat(16), { source: { kind: "popup", tabId: 7, frameId: 0 } }),
      popupPage,
    );
    expect(outcome.type).toBe("report");
    expect(walletCalls().map((d) => [d.type, (d.data as { document?: string }).document])).toEqual([
      ["wallet.account", undefined],
      ["wallet.sign", "a".repeat(32)],
    ]);
  });

  it("says nothing was paid when the page was left before the wallet signed, and counts nothing", async () => {
    const { service, ledger, recoveries, history, alive } = await setup({
      pageLeftBeforeSigning: true,
    });
    const outcome = await service.start(
      request("s".repeat(16), { document: "c".repeat(32) }),
      contentScript(7),
    );
    expect(outcome).toMatchObject({ type: "failed", charged: false, code: "page_left" });
    expect(outcome.type === "failed" && outcome.message).toContain(
      "The page you paid from was closed, reloaded or left before your wallet signed",
    );
    expect(await ledger.getValue()).toEqual({ day: "2025-06-01", spentUnits: 0 });
    expect(await recoveries.getValue()).toEqual([]);
    expect(await history.getValue()).toEqual([]);
    expect(alive()).toBe(0);
  });

  it("pays a badge's check with the wallet of the sender's own tab and frame, whatever the message claims", async () => {
    const { service, walletCalls, delivered, history, alive } = await setup();
    const outcome = await service.start(
      request("s".repeat(16), { source: { kind: "popup", tabId: 99, frameId: 0 } }),
      contentScript(7, 2),
    );
    expect(outcome.type).toBe("report");
    expect(walletCalls().map((d) => [d.type, d.tabId, d.frameId])).toEqual([
      ["wallet.account", 7, 2],
      ["wallet.sign", 7, 2],
    ]);
    // Progress goes back to the badge that asked, not to extension pages.
    const progress = delivered.filter((d) => d.type === "check.progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((d) => d.tabId === 7 && d.frameId === 2)).toBe(true);
    expect(history.value()).toHaveLength(1);
    expect(alive()).toBe(0);
  });

  it("pays a popup's check with the tab the popup names, and reports progress to the popup", async () => {
    const { service, walletCalls, delivered } = await setup();
    const outcome = await service.start(
      request("p".repeat(16), { source: { kind: "popup", tabId: 12, frameId: 0 } }),
      // The popup opened as a page in a tab has a tab of its own; it must not pay with that one.
      { ...popupPage, tab: { id: 3 } },
    );
    expect(outcome.type).toBe("report");
    expect(walletCalls().every((d) => d.tabId === 12)).toBe(true);
    const progress = delivered.filter((d) => d.type === "check.progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.every((d) => d.tabId === null)).toBe(true);
  });

  it("refuses a check from an extension page that is not the popup, and from no tab at all", async () => {
    const { service, walletCalls } = await setup();
    await expect(service.start(request("x".repeat(16)), popupPage)).rejects.toMatchObject({
      code: "not_allowed",
    });
    await expect(
      service.start(request("y".repeat(16), { source: { kind: "badge", tabId: 1, frameId: 0 } }), {
        ...popupPage,
      }),
    ).rejects.toMatchObject({ code: "not_allowed" });
    await expect(
      service.start(request("z".repeat(16)), { id: "presend-id", url: "https://elsewhere/" }),
    ).rejects.toMatchObject({ code: "not_allowed" });
    expect(walletCalls()).toEqual([]);
  });

  it("never pays twice for one session (a replayed start message)", async () => {
    const { service, walletCalls, ledger } = await setup();
    const session = "r".repeat(16);
    await service.start(request(session), contentScript(7));
    await expect(service.start(request(session), contentScript(7))).rejects.toMatchObject({
      code: "not_allowed",
    });
    expect(walletCalls().filter((d) => d.type === "wallet.sign")).toHaveLength(1);
    expect(ledger.value().spentUnits).toBe(10_000);
  });

  it("holds checks from two tabs against the cap together", async () => {
    // The wallet answers no signature until both checks have asked for one, or one has ended:
    // neither payment is in the ledger while the other is checked against the cap.
    let asked = 0;
    let answerSignatures = () => {};
    const bothAskedOrOneEnded = new Promise<void>((resolve) => {
      answerSignatures = resolve;
    });
    const { service, walletCalls, ledger } = await setup({
      dailyCapUnits: 10_000,
      beforeSigning: () => {
        asked += 1;
        if (asked === 2) answerSignatures();
        return bothAskedOrOneEnded;
      },
    });
    const outcomes = await Promise.all(
      [
        service.start(request("a".repeat(16)), contentScript(1)),
        service.start(request("b".repeat(16)), contentScript(2)),
      ].map((started) => started.finally(answerSignatures)),
    );
    expect(outcomes.map((o) => o.type).sort()).toEqual(["refused", "report"]);
    expect(walletCalls().filter((d) => d.type === "wallet.sign")).toHaveLength(1);
    expect(ledger.value().spentUnits).toBe(10_000);
  });

  it("fetches a lost report again with one receipt signature from the clicking tab, and pays nothing", async () => {
    const { service, walletCalls, history, recoveries, ledger, alive } = await setup({
      afterPayment: "unknown",
    });
    const lost = await service.start(request("l".repeat(16)), contentScript(7, 1));
    expect(lost).toMatchObject({ type: "failed", charged: "unknown" });
    const recoveryId = lost.type === "failed" ? (lost.recoveryId ?? "") : "";
    const nonce = recoveries.value()[0]?.nonce;

    const clickedIn = "c".repeat(32);
    const outcome = await service.recover(
      {
        session: "f".repeat(16),
        recoveryId,
        source: { kind: "popup", tabId: 99, frameId: 0 },
        document: clickedIn,
      },
      contentScript(7, 1),
    );
    expect(outcome.type).toBe("recovered");
    const signing = walletCalls().filter((d) => d.type === "wallet.signMessage");
    // Asked of the document the click was made in only (a page loaded since refuses it).
    expect(
      signing.map((d) => {
        const data = d.data as { message: string; document?: string };
        return [d.tabId, d.frameId, data.message, data.document];
      }),
    ).toEqual([[7, 1, `presend receipt ${nonce}`, clickedIn]]);
    expect(walletCalls().filter((d) => d.type === "wallet.sign")).toHaveLength(1);
    expect(history.value()).toHaveLength(1);
    expect(recoveries.value()).toEqual([]);
    expect(ledger.value().spentUnits).toBe(10_000);
    expect(alive()).toBe(0);
    // A replayed click asks for nothing more.
    await expect(
      service.recover({ session: "f".repeat(16), recoveryId }, contentScript(7, 1)),
    ).rejects.toMatchObject({ code: "not_allowed" });
    await expect(
      service.recover(
        { session: "g".repeat(16), recoveryId },
        { id: "presend-id", url: "https://x/" },
      ),
    ).rejects.toMatchObject({ code: "not_allowed" });
  });

  it("lets the session key's vouchers of a click pay at most the check's price, and pays exact where no channel is offered", async () => {
    const channelId = `0x${"ab".repeat(32)}`;
    const access = createChannelAccess({
      sessionKey: memoryItem<ChannelSessionKey | null>(null),
      states: memoryItem({}),
      salts: memoryItem({}),
      balances: memoryItem<ChannelBalance[]>([
        {
          channelId,
          apiUrl: "http://api.test",
          payer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
          deposited: "50000",
          charged: "0",
          updatedAt: now.toISOString(),
        },
      ]),
      now: () => now,
      newKey: () => `0x${"5".repeat(64)}`,
    });
    const handedOut: Awaited<ReturnType<ChannelAccess["options"]>>[] = [];
    const spy: ChannelAccess = {
      ...access,
      options: async (...args) => {
        const options = await access.options(...args);
        handedOut.push(options);
        return options;
      },
    };
    const { service, walletCalls } = await setup({ channel: spy });
    // The fake API offers exact only: the check is paid by the wallet as before.
    expect((await service.start(request("c".repeat(16)), contentScript(7))).type).toBe("report");
    expect(walletCalls().filter((d) => d.type === "wallet.sign")).toHaveLength(1);
    await service.start(request("d".repeat(16)), contentScript(7));
    expect(handedOut).toHaveLength(2);
    const voucher = (maxClaimableAmount: bigint) => ({
      domain: { name: "x402 Batch Settlement", version: "1", chainId: 8453 },
      types: {
        Voucher: [
          { name: "channelId", type: "bytes32" },
          { name: "maxClaimableAmount", type: "uint128" },
        ],
      },
      primaryType: "Voucher",
      message: { channelId, maxClaimableAmount },
    });
    const [first, second] = handedOut.map((options) => options.voucherSigner);
    // Each click pays its check's attested price ($0.01) over what the key signed before it.
    await expect(first?.signTypedData(voucher(10_000n))).resolves.toMatch(/^0x/);
    await expect(first?.signTypedData(voucher(20_000n))).rejects.toMatchObject({
      code: "channel_out_of_step",
    });
    await expect(second?.signTypedData(voucher(30_000n))).rejects.toMatchObject({
      code: "session_key_refused",
    });
    await expect(second?.signTypedData(voucher(20_000n))).resolves.toMatch(/^0x/);
  });
});
