import type { Report } from "@presend/shared/api/report";
import type { Address } from "viem";
import type { HistoryEntry } from "./schemas";

/**
 * A paid check of `address` as it is stored in the history: an active wallet on base, verdict
 * ok. For tests (unit and e2e) that need a check made earlier or a server's report.
 * @example await history.setValue([exampleHistoryEntry({ address, checkedAt: new Date() })])
 */
export function exampleHistoryEntry(options: { address: Address; checkedAt: Date }): HistoryEntry {
  const checkedAt = options.checkedAt.toISOString();
  const report = {
    address: options.address,
    checksum: { status: "valid", message: "Checksum is valid (EIP-55)." },
    chain: {
      name: "base",
      chainId: 8453,
      status: "ok",
      isContract: false,
      kind: "eoa",
      kindLabel: "wallet (EOA)",
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
    report: "example",
    checkedAt,
  } satisfies Report;
  return {
    id: "example",
    address: options.address,
    chain: "base",
    route: "check",
    level: "ok",
    headline: report.verdict.headline,
    checkedAt,
    amount: "10000",
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    transaction: null,
    report,
  };
}
