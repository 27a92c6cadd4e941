import type { z } from "zod";
import type { ChainFacts, VerdictGasSchema } from "../api/report";
import { chains } from "../chains/chains";
import { approximateAmount } from "./approximateAmount";

export type VerdictGas = z.infer<typeof VerdictGasSchema>;

const plainTransferGas = 21_000n;

/**
 * What sending costs on the target chain, as one sentence plus the two costs, or why it is unknown;
 * a native send that runs the address's code says how much gas it needs, and on an OP-stack chain
 * the sentence says whether the L1 data fee is counted.
 * @example summarizeGas(baseFacts).summary // "Sending ETH costs about 0.000031 ETH on Base including the L1 data fee; a token transfer about 0.000075 ETH."
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
  // An OP-stack send also pays an L1 data fee: counted in the costs when the oracle answered.
  const l1DataFee = !chains[target.name].opStack
    ? ""
    : target.gas.l1DataFee
      ? " including the L1 data fee"
      : ", not counting the L1 data fee (it could not be read)";
  return {
    summary: `Sending ${nativeTransferCost.symbol} costs about ${native} on ${chains[target.name].label}${l1DataFee}${codeRuns}; a token transfer about ${token}.`,
    nativeTransferCost,
    tokenTransferCost,
  };
}
