import { decodePaymentSignatureHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it, vi } from "vitest";
import type { Report } from "../../../../shared/api/report";
import type { AttestationResult } from "../../../../shared/attestation/verifyAttestation";
import type { HistoryEntry, PinnedKey, PinnedKeys, SpendLedger } from "../storage/schemas";
import { StoredValueInvalidError, type ValidatedItem } from "../storage/validatedItem";
import { type PaidCheckDeps, runPaidCheck } from "./runPaidCheck";

const payer = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
const payTo: Address = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address: Address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = new Date("2025-06-01T12:00:00Z");

function memoryItem<T>(initial: T): ValidatedItem<T> & { value: () => T } {
  let value = initial;
  return {
    key: "memory",
    value: () => value,
    getValue: async () => value,
    setValue: async (v) => {
      value = v;
    },
    update: async (change) => {
      value = change(value);
      return value;
    },
    watch: () => () => undefined,
  };
}

const challenge: PaymentRequired = {
  x402Version: 2,
  resource: { url: "http://api.test/check", description: "check", mimeType: "application/json" },
  accepts: [
    {
      scheme: "exact",
      network: "eip155:8453",
      asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      amount: "10000",
      payTo,
      maxTimeoutSeconds: 60,
      extra: { name: "USD Coin", version: "2" },
    },
  ],
  extensions: { "x-presend-attestation": { info: { jws: "a.b.c", key: {}, note: "" } } },
};

const report = {
  address,
  checksum: { status: "valid", message: "ok" },
  chain: {
    name: "base",
    chainId: 8453,
    status: "ok",
    isContract: false,
    kind: "eoa",
    outgoingTxs: 3,
    native: null,
    usdc: null,
    usdt: null,
    gas: null,
    blockNumber: "1",
  },
  verdict: {
    level: "ok",
    headline: "Active wallet",
    next: "Send.",
    gas: { summary: "cheap", nativeTransferCost: null, tokenTransferCost: null },
    reasons: [],
  },
  report: "text",
  checkedAt: now.toISOString(),
} satisfies Report;

const valid: AttestationResult = {
  type: "valid",
  payload: { payTo, maxPrice: { "/check": "10000" }, iat: 0, exp: 2e9 },
  block: {
    jws: "a.b.c",
    key: {
      kty: "EC",
      crv: "P-256",
      alg: "ES256",
      use: "sig",
      x: "x",
      y: "y",
      kid: "presend-2025-06",
    },
    note: "",
  },
  thumbprint: "thumb-1",
};

function setup(
  options: {
    verify?: AttestationResult;
    spent?: number;
    pinned?: PinnedKeys;
    reject?: boolean;
    apiUrl?: string;
  } = {},
) {
  const requests: Array<{ headers: Record<string, string> }> = [];
  const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
    const headers = (init?.headers ?? {}) as Record<string, string>;
    requests.push({ headers });
    if (!headers["PAYMENT-SIGNATURE"]) {
      return new Response("{}", {
        status: 402,
        headers: { "PAYMENT-REQUIRED": encodePaymentRequiredHeader(challenge) },
      });
    }
    return new Response(JSON.stringify(report), { status: 200 });
  }) as unknown as typeof globalThis.fetch;
  const signTypedData = vi.fn(async (typedData: Parameters<typeof payer.signTypedData>[0]) => {
    if (options.reject) throw Object.assign(new Error("declined"), { code: "rejected" });
    return payer.signTypedData(typedData) as Promise<Hex>;
  });
  const ledger = memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: options.spent ?? 0 });
  const history = memoryItem<HistoryEntry[]>([]);
  const pinnedKeys = memoryItem<PinnedKeys>(options.pinned ?? {});
  const progress = vi.fn();
  const deps: PaidCheckDeps = {
    fetch,
    settings: async () => ({
      apiUrl: options.apiUrl ?? "http://api.test",
      dailyCapUnits: 1_000_000,
      disabledSites: [],
    }),
    pinnedKeys,
    ledger,
    history,
    historyLimit: 50,
    wallet: { account: async () => payer.address, signTypedData: signTypedData as never },
    verify: vi.fn(async () => options.verify ?? valid),
    progress,
    now: () => now,
    randomId: () => "entry-1",
  };
  return { deps, requests, signTypedData, ledger, history, pinnedKeys, progress };
}

describe("runPaidCheck", () => {
  it("pays the attested challenge with an x402 payload signed by the page wallet", async () => {
    const { deps, requests, ledger, history, pinnedKeys } = setup();
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
    expect(pinnedKeys.value()["http://api.test"]?.fingerprint).toBe("thumb-1");
  });

  it("refuses without a signature request when the challenge does not match the attestation", async () => {
    const { deps, signTypedData, requests } = setup({
      verify: {
        type: "invalid",
        reason: "payto_mismatch",
        message: "different payee",
        thumbprint: "t",
      },
    });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toEqual({
      type: "refused",
      code: "attestation_mismatch",
      message: "different payee",
    });
    expect(signTypedData).not.toHaveBeenCalled();
    expect(requests).toHaveLength(1);
  });

  it("refuses when the pinned key changed", async () => {
    const pinned: PinnedKey = {
      jwk: valid.block.key,
      fingerprint: "old",
      pinnedAt: now.toISOString(),
      apiUrl: "http://api.test",
    };
    const { deps, signTypedData } = setup({
      pinned: { "http://api.test": pinned },
      verify: { type: "invalid", reason: "key_changed", message: "key changed", thumbprint: "new" },
    });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "key_changed" });
    expect(deps.verify).toHaveBeenCalledWith(expect.objectContaining({ pinnedThumbprint: "old" }));
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("pins the key of another API URL anew instead of comparing it with the first one", async () => {
    const pinned: PinnedKey = {
      jwk: valid.block.key,
      fingerprint: "key-of-the-first-api",
      pinnedAt: now.toISOString(),
      apiUrl: "http://api.test",
    };
    const { deps, pinnedKeys } = setup({
      pinned: { "http://api.test": pinned },
      apiUrl: "http://other.test:8402/",
    });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("report");
    expect(deps.verify).toHaveBeenCalledWith(
      expect.not.objectContaining({ pinnedThumbprint: expect.anything() }),
    );
    expect(pinnedKeys.value()).toEqual({
      "http://api.test": pinned,
      "http://other.test:8402": expect.objectContaining({ fingerprint: "thumb-1" }),
    });
  });

  it("refuses to pay when the spend ledger is unreadable instead of counting from $0", async () => {
    const { deps, signTypedData, requests } = setup();
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
    const { deps, signTypedData } = setup({ spent: 995_000 });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome).toMatchObject({ type: "refused", code: "cap_reached" });
    expect(signTypedData).not.toHaveBeenCalled();
  });

  it("reports a declined signature as rejected, with nothing spent", async () => {
    const { deps, ledger, requests } = setup({ reject: true });
    const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps);
    expect(outcome.type).toBe("rejected");
    expect(ledger.value().spentUnits).toBe(0);
    expect(requests).toHaveLength(1);
  });

  it("refuses an invalid address before any challenge", async () => {
    const { deps } = setup();
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
});
