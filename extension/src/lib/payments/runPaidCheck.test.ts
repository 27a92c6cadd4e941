import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import { MessageError } from "../messaging/MessageError";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { memoryItem } from "../storage/memoryItem";
import type {
  HistoryEntry,
  PendingRecovery,
  PinnedKey,
  PinnedKeys,
  SpendLedger,
} from "../storage/schemas";
import { StoredValueInvalidError } from "../storage/validatedItem";
import { createPendingSpend } from "./createPendingSpend";
import { type FakePaidApiOptions, fakePaidApi } from "./fakePaidApi";
import { type PaidCheckChannel, type PaidCheckDeps, runPaidCheck } from "./runPaidCheck";

const payer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const payTo: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = new Date("2025-06-01T12:00:00Z");

// What the server answers once paid.
const { report } = exampleHistoryEntry({ address, checkedAt: now });

async function setup(
  options: {
    api?: Partial<FakePaidApiOptions>;
    spent?: number;
    pinned?: PinnedKeys;
    reject?: boolean;
    apiUrl?: string;
    dailyCapUnits?: number;
    checkAsPayer?: boolean;
  } = {},
) {
  const api = await fakePaidApi({ payTo, report, now, ...options.api });
  const { fetch, requests } = api;
  const signTypedData = vi.fn(async (typedData: Parameters<typeof payer.signTypedData>[0]) => {
    if (options.reject) throw new MessageError({ code: "rejected", message: "declined" });
    return payer.signTypedData(typedData) as Promise<Hex>;
  });
  const ledger = memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: options.spent ?? 0 });
  const history = memoryItem<HistoryEntry[]>([]);
  const pinnedKeys = memoryItem<PinnedKeys>(options.pinned ?? {});
  const recoveries = memoryItem<PendingRecovery[]>([]);
  const progress = vi.fn();
  const deps: PaidCheckDeps = {
    fetch,
    settings: async () => ({
      apiUrl: options.apiUrl ?? "http://api.test",
      dailyCapUnits: options.dailyCapUnits ?? 1_000_000,
      disabledSites: [],
      ...(options.checkAsPayer !== undefined && { checkAsPayer: options.checkAsPayer }),
    }),
    pinnedKeys,
    ledger,
    pending: createPendingSpend(),
    history,
    historyLimit: 50,
    recoveries,
    wallet: {
      account: async () => payer.address,
      signTypedData: signTypedData as never,
      // An exact payment reads no chain.
      call: async () => {
        throw new Error("No chain read expected.");
      },
    },
    progress,
    now: () => now,
    randomId: () => "entry-1",
  };
  return {
    deps,
    api,
    requests,
    signTypedData,
    ledger,
    history,
    pinnedKeys,
    recoveries,
    progress,
  };
}

// The JSON bodies the client posts, in order.
function spyOnBodies(deps: PaidCheckDeps): unknown[] {
  const bodies: unknown[] = [];
  const inner = deps.fetch;
  deps.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (typeof init?.body === "string") bodies.push(JSON.parse(init.body));
    return inner(input, init);
  }) as typeof fetch;
  return bodies;
}

describe("runPaidCheck", () => {
  it("pays the attested challenge with an x402 payload signed by the page wallet", async () => {
    const { deps, requests, ledger, history, pinnedKeys } = await setup();
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("report");
    const header = requests[1]?.headers["PAYMENT-SIGNATURE"];
    const payload = decodePaymentSignatureHeader(header ?? "");
    expect(payload.accepted.payTo).toBe(payTo);
    expect((payload.payload as { authorization: { from: string } }).authorization.from).toBe(
      payer.address,
    );
    expect(ledger.value()).toEqual({ day: "2025-06-01", spentUnits: 10_000 });
    expect(history.value()[0]).toMatchObject({ address, level: "ok", amount: "10000", payTo });
    expect(pinnedKeys.value()["http://api.test"]?.fingerprint).toMatch(/^[\w-]{43}$/);
  });

  it("sends the paying account as the check's sender, and says so once the offer is verified", async () => {
    const { deps, progress } = await setup();
    const bodies = spyOnBodies(deps);
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("report");
    // The challenge and the paid request carry the same body: the sender is paid for as asked.
    expect(bodies).toEqual([
      { address, chain: "base", from: payer.address },
      { address, chain: "base", from: payer.address },
    ]);
    expect(progress).toHaveBeenCalledWith(
      expect.objectContaining({ step: "waiting-wallet", from: payer.address }),
    );
  });

  it("checks one's own address without a sender (the API refuses from = address)", async () => {
    // The server's report is about the address asked: here the payer's own.
    const own = exampleHistoryEntry({ address: payer.address, checkedAt: now }).report;
    const { deps, progress } = await setup({ api: { report: own } });
    const bodies = spyOnBodies(deps);
    const outcome = await runPaidCheck(
      { route: "check", address: payer.address, chain: "base" },
      deps,
    );
    expect(outcome.type).toBe("report");
    expect(bodies[0]).toEqual({ address: payer.address, chain: "base" });
    const waiting = progress.mock.calls.find(([p]) => p.step === "waiting-wallet")?.[0];
    expect(waiting).not.toHaveProperty("from");
  });

  it("leaves the sender out when the person turned checking as the payer off", async () => {
    const { deps } = await setup({ checkAsPayer: false });
    const bodies = spyOnBodies(deps);
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("report");
    expect(bodies[0]).toEqual({ address, chain: "base" });
  });

  it("refuses without a signature request when the challenge does not match the attestation", async () => {
    const { deps, signTypedData, requests } = await setup({
      api: { challengePayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" },
    });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "attestation_mismatch" });
    expect(signTypedData).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it("refuses when the pinned key changed", async () => {
    const other = await fakePaidApi({ payTo, report, now });
    const pinned: PinnedKey = {
      jwk: other.key,
      fingerprint: other.fingerprint,
      pinnedAt: now.toISOString(),
      apiUrl: "http://api.test",
    };
    const { deps, signTypedData } = await setup({ pinned: { "http://api.test": pinned } });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "key_changed" });
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("pins the key of another API URL anew instead of comparing it with the first one", async () => {
    const other = await fakePaidApi({ payTo, report, now });
    const pinned: PinnedKey = {
      jwk: other.key,
      fingerprint: other.fingerprint,
      pinnedAt: now.toISOString(),
      apiUrl: "http://api.test",
    };
    const { deps, pinnedKeys, api } = await setup({
      pinned: { "http://api.test": pinned },
      apiUrl: "http://other.test:8402/",
    });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("report");
    expect(pinnedKeys.value()).toEqual({
      "http://api.test": pinned,
      "http://other.test:8402": expect.objectContaining({ fingerprint: api.fingerprint }),
    });
  });

  it("shows an altered report as forged, charged, and keeps it out of the history", async () => {
    const { deps, ledger, history } = await setup({ api: { afterPayment: "forged" } });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "forged", charged: true });
    expect(history.value()).toEqual([]);
    expect(ledger.value().spentUnits).toBe(10_000);
  });

  it("says charged: unknown when the paid request gets no answer, and keeps it counted against the cap", async () => {
    const { deps, ledger } = await setup({ api: { afterPayment: "drop" } });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "failed", charged: "unknown" });
    expect(outcome).toHaveProperty("recoveryId");
    expect(ledger.value().spentUnits).toBe(10_000);
    expect(deps.pending.total()).toBe(0n);
  });

  it("records the signed authorization before the payment is sent, so a lost answer can be recovered", async () => {
    const { deps, recoveries, api } = await setup({ api: { afterPayment: "drop" } });
    const seenWhenPaying: PendingRecovery[][] = [];
    deps.fetch = (async (url: string, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (headers["PAYMENT-SIGNATURE"]) seenWhenPaying.push(recoveries.value());
      return api.fetch(url, init);
    }) as typeof fetch;
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(seenWhenPaying).toHaveLength(1);
    const paid = api.requests.find((r) => r.headers["PAYMENT-SIGNATURE"]);
    const { authorization } = decodePaymentSignatureHeader(paid?.headers["PAYMENT-SIGNATURE"] ?? "")
      .payload as { authorization: { from: string; nonce: string } };
    expect(seenWhenPaying[0]).toEqual([
      expect.objectContaining({
        payer: authorization.from,
        nonce: authorization.nonce.toLowerCase(),
        transaction: null,
        route: "check",
        address,
        chain: "base",
        amount: "10000",
        payTo,
        apiUrl: "http://api.test",
      }),
    ]);
    expect(outcome).toMatchObject({ type: "failed", charged: "unknown", recoveryId: "entry-1" });
    expect(recoveries.value()[0]?.lastAttempt).toMatchObject({ state: "unknown" });
  });

  it("keeps the recovery when the server answers 502 settlement_unknown, and never says nothing was charged", async () => {
    const { deps, recoveries, ledger } = await setup({ api: { afterPayment: "unknown" } });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "failed", charged: "unknown", recoveryId: "entry-1" });
    if (outcome.type === "failed") expect(outcome.message).not.toMatch(/nothing was charged/i);
    expect(recoveries.value()).toHaveLength(1);
    expect(ledger.value().spentUnits).toBe(10_000);
  });

  it("forgets the recorded authorization once the report arrived, or the answer proved no charge", async () => {
    for (const afterPayment of ["report", "refused"] as const) {
      const { deps, recoveries } = await setup({ api: { afterPayment } });
      await runPaidCheck({ route: "check", address, chain: "base" }, deps);
      expect(recoveries.value()).toEqual([]);
    }
  });

  it("refunds the cap only when the answer proves no settlement (a 402 refusing the payment)", async () => {
    const { deps, ledger } = await setup({ api: { afterPayment: "refused" } });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "failed", charged: false });
    expect(ledger.value().spentUnits).toBe(0);
    expect(deps.pending.total()).toBe(0n);
  });

  it("keeps the channel when a payment is refused for another reason than being out of step", async () => {
    let startedOver = 0;
    const channel: PaidCheckChannel = {
      options: async (_scope, deposit) => ({
        deposit,
        voucherSigner: {
          address: payer.address,
          signTypedData: async () => {
            throw new Error("no voucher without a channel offer");
          },
        },
      }),
      exclusive: (pay) => pay(),
      startOver: async () => {
        startedOver += 1;
      },
    };
    const { deps } = await setup({ api: { afterPayment: "refused" } });
    const outcome = await runPaidCheck(
      { route: "check", address, chain: "base" },
      { ...deps, channel },
    );
    expect(outcome).toMatchObject({ type: "failed", charged: false });
    expect(outcome.type === "failed" && outcome.message).not.toMatch(/out of step/);
    expect(startedOver).toBe(0);
  });

  it("refuses to pay when the spend ledger is unreadable instead of counting from $0", async () => {
    const { deps, signTypedData, requests } = await setup();
    const corrupt = async () => {
      throw new StoredValueInvalidError("local:spendLedger");
    };
    deps.ledger = { ...deps.ledger, getValue: corrupt, update: corrupt };
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "ledger_unreadable" });
    expect(signTypedData).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it("refuses over the daily cap without a signature request", async () => {
    const { deps, signTypedData } = await setup({ spent: 995_000 });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "cap_reached" });
    // Not "reached": $0.005 is left, the check costs more.
    expect(outcome.type === "refused" && outcome.message).toContain(
      "This check costs $0.01, more than the $0.005 left of today's $1.00 cap ($0.995 spent).",
    );
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("lets only one of two checks started together through when the cap has room for one", async () => {
    const { deps, signTypedData, ledger } = await setup({ dailyCapUnits: 10_000 });
    const request = { route: "check", address, chain: "base" } as const;
    const outcomes = await Promise.all([runPaidCheck(request, deps), runPaidCheck(request, deps)]);
    expect(outcomes.map((o) => o.type).sort()).toEqual(["refused", "report"]);
    expect(outcomes.find((o) => o.type === "refused")).toMatchObject({ code: "cap_reached" });
    expect(signTypedData).toHaveBeenCalledTimes(1);
    expect(ledger.value().spentUnits).toBe(10_000);
    expect(deps.pending.total()).toBe(0n);
  });

  it("reports a declined signature as rejected, with nothing spent", async () => {
    const { deps, ledger, requests } = await setup({ reject: true });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toEqual({
      type: "rejected",
      message: "You declined the payment in your wallet.",
    });
    expect(ledger.value().spentUnits).toBe(0);
    expect(deps.pending.total()).toBe(0n);
    expect(requests).toHaveLength(1);
  });

  it("tells a refused connect from a declined payment: no signature asked, nothing spent", async () => {
    const { deps, ledger, signTypedData } = await setup();
    deps.wallet.account = async () => {
      throw new MessageError({ code: "rejected", message: "declined" });
    };
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toEqual({
      type: "rejected",
      message: "You declined to connect your wallet to this site.",
    });
    expect(signTypedData).not.toHaveBeenCalled();
    expect(ledger.value().spentUnits).toBe(0);
  });

  it("a Cancel while the wallet is asked ends the check: nothing signed, nothing spent", async () => {
    const { deps, ledger } = await setup();
    deps.wallet.signTypedData = async () => {
      throw new MessageError({ code: "cancelled", message: "cancelled" });
    };
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toEqual({ type: "rejected", message: "You cancelled before signing." });
    expect(ledger.value().spentUnits).toBe(0);
    expect(deps.pending.total()).toBe(0n);
  });

  it("refuses an invalid address before any challenge", async () => {
    const { deps } = await setup();
    deps.fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({ error: { code: "checksum_mismatch", message: "Wrong checksum." } }),
          { status: 400 },
        ),
    ) as unknown as typeof fetch;
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toEqual({
      type: "refused",
      code: "invalid_address",
      message: "Wrong checksum.",
    });
  });

  it("asks for a channel with the deposit in the settings (none at 0), and pays exact where none is offered", async () => {
    const asked: bigint[] = [];
    let exclusive = 0;
    const channel: PaidCheckChannel = {
      options: async (scope, deposit, price) => {
        expect(scope).toEqual({ apiUrl: "http://api.test", payer: payer.address });
        // The price is the attested one, known only once the offer is verified.
        expect(price()).toBeNull();
        asked.push(deposit);
        return {
          deposit,
          voucherSigner: {
            address: payer.address,
            signTypedData: async () => {
              throw new Error("no voucher without a channel offer");
            },
          },
        };
      },
      exclusive: (pay) => {
        exclusive += 1;
        return pay();
      },
      startOver: async () => {
        throw new Error("not out of step");
      },
    };
    for (const channelDepositUnits of [20_000, undefined, 0]) {
      const { deps, signTypedData, ledger } = await setup();
      const settings = await deps.settings();
      const outcome = await runPaidCheck(
        { route: "check", address, chain: "base" },
        {
          ...deps,
          channel,
          settings: async () => ({
            ...settings,
            ...(channelDepositUnits !== undefined && { channelDepositUnits }),
          }),
        },
      );
      // The fake API offers exact only: one wallet signature, the check's price counted.
      expect(outcome.type).toBe("report");
      expect(signTypedData).toHaveBeenCalledTimes(1);
      expect(ledger.value().spentUnits).toBe(10_000);
    }
    expect(asked).toEqual([20_000n, 50_000n]);
    // An exact payment never waits in the channel's queue (behind another tab's wallet prompt).
    expect(exclusive).toBe(0);
  });
});
