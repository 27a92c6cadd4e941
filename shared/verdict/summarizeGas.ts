import type { z } from "zod";
import type { ChainFacts, VerdictGasSchema } from "../api/report";
import { chains } from "../chains/chains";
import { approximateAmount } from "./approximateAmount";

export type VerdictGas = z.infer<typeof VerdictGasSchema>;

/**
 * What sending costs on the target chain, as one sentence plus the two costs, or why it is unknown.
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
  return {
    summary: `Sending ${nativeTransferCost.symbol} costs about ${native} on ${chains[target.name].label}; a token transfer about ${token}.`,
    nativeTransferCost,
    tokenTransferCost,
  };
}
