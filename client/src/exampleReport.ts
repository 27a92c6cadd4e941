import type { Report } from "@presend/shared/api/report";
import type { Address } from "viem";

/**
 * A /check report of `address` as the server answers it: an active wallet on base, verdict ok.
 * For tests that need a paid report without running the engine.
 * @example const api = await fakePaidApi({ payTo, report: exampleReport({ address, checkedAt }) });
 */
export function exampleReport(options: { address: Address; checkedAt: Date }): Report {
  return {
    address: options.address,
    checksum: { status: "valid", message: "Address checksum is correct." },
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
    checkedAt: options.checkedAt.toISOString(),
  };
}
