import type { ChainName } from "../chains/chains";
import { chains } from "../chains/chains";
import type { Finding } from "./summarizeFindings";

/**
 * An address that only receives is a caution for a stranger ("send a small test amount first"),
 * but not for a sender who has paid it before on the same chain: their own payments were the test.
 * Lowers `receive_only` on `chain` to ok when `known_counterparty` is there too; nothing else.
 * @example receiveOnlyPaidBefore([receiveOnly, knownCounterparty], "base")[0]?.level // "ok"
 */
export function receiveOnlyPaidBefore(findings: readonly Finding[], chain: ChainName): Finding[] {
  const paidHere = findings.some(
    (finding) => finding.code === "known_counterparty" && finding.chain === chain,
  );
  if (!paidHere) return [...findings];
  return findings.map((finding) =>
    finding.code === "receive_only" && finding.chain === chain
      ? {
          ...finding,
          level: "ok",
          message: `${finding.message} You have paid it before on ${chains[chain].label}.`,
          next: "Send as usual.",
        }
      : finding,
  );
}
