import { exampleReport } from "@presend/client/exampleReport";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { Address } from "viem";
import type { HistoryEntry } from "./schemas";

/**
 * A paid check of `address` as it is stored in the history: an active wallet on base, verdict
 * ok. For tests (unit and e2e) that need a check made earlier or a server's report.
 * @example await history.setValue([exampleHistoryEntry({ address, checkedAt: new Date() })])
 */
export function exampleHistoryEntry(options: { address: Address; checkedAt: Date }): HistoryEntry {
  const checkedAt = options.checkedAt.toISOString();
  const report = exampleReport(options);
  return {
    id: "example",
    address: options.address,
    chain: "base",
    route: "check",
    level: "ok",
    headline: report.verdict.headline,
    checkedAt,
    amount: routePrices.check.toString(),
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    transaction: null,
    report,
  };
}
