import type { z } from "zod";
import type { ChainFacts, VerdictGasSchema } from "../api/report";
import { chains } from "../chains/chains";
import { approximateAmount } from "./approximateAmount";

export type VerdictGas = z.infer<typeof VerdictGasSchema>;

const plainTransferGas = 21_000n;

/**
 * What sending costs on the target chain, as one sentence plus the two costs, or why it is unknown;
 * a native send that runs the address's code says how much gas it needs.
 * @example summarizeGas(baseFacts).summary // "Sending ETH costs about 0.000021 ETH on Base; a token transfer about 0.000065 ETH."
 */
export function summarizeGas(target: ChainFacts): VerdictGas {
  if (target.status !== "ok") {
    return {
      summary: `Gas cost on ${chains[target.name].label} is unknown: the chain could not be read.`,
      nativeTransferCost: null,
      tokenTransferCost: null,
    };
  }
  if (!target.gas) {
    return {
      summary: `Gas cost on ${chains[target.name].label} is unknown: the gas price could not be read.`,
      nativeTransferCost: null,
      tokenTransferCost: null,
    };
  }
  const { nativeTransferCost, tokenTransferCost } = target.gas;
  const native = `${approximateAmount(nativeTransferCost)} ${nativeTransferCost.symbol}`;
  const token = `${approximateAmount(tokenTransferCost)} ${tokenTransferCost.symbol}`;
  const nativeGas = BigInt(target.gas.nativeTransferGas ?? plainTransferGas);
  // Exchanges and scripts send "plain" native transfers with a 21,000 gas limit: to an address
  // whose code runs on receipt, that send reverts and its fee is spent.
  const codeRuns =
    nativeGas > plainTransferGas
      ? ` (${nativeGas.toLocaleString("en-US")} gas: its code runs when it receives ${nativeTransferCost.symbol}, so a send limited to 21,000 gas fails)`
      : "";
  return {
    summary: `Sending ${nativeTransferCost.symbol} costs about ${native} on ${chains[target.name].label}${codeRuns}; a token transfer about ${token}.`,
    nativeTransferCost,
    tokenTransferCost,
  };
}
