import type { Worker } from "@playwright/test";

/** Writes a history entry (a paid check made earlier) straight into extension storage. */
export async function seedCheckedAddress(serviceWorker: Worker, address: string): Promise<void> {
  const checkedAt = new Date().toISOString();
  const entry = {
    id: "seeded",
    address,
    chain: "base",
    route: "check",
    level: "ok",
    headline: "Active wallet",
    checkedAt,
    amount: "10000",
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    transaction: null,
    report: {
      address,
      checksum: { status: "valid", message: "Checksum is valid (EIP-55)." },
      chain: {
        name: "base",
        chainId: 8453,
        status: "ok",
        isContract: false,
        kind: "eoa",
        outgoingTxs: 4,
        native: null,
        usdc: null,
        usdt: null,
        gas: null,
        blockNumber: "1",
      },
      verdict: {
        level: "ok",
        headline: "Active wallet",
        next: "Send a small test amount first.",
        gas: { summary: "", nativeTransferCost: null, tokenTransferCost: null },
        reasons: [],
      },
      report: "seeded",
      checkedAt,
    },
  };
  await serviceWorker.evaluate(
    (value) =>
      (
        globalThis as unknown as {
          chrome: { storage: { local: { set(items: object): Promise<void> } } };
        }
      ).chrome.storage.local.set({ history: value }),
    [entry],
  );
}
