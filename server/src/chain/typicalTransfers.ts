import type { ChainInfo } from "@presend/shared/chains/chains";
import {
  type Address,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseEther,
  parseGwei,
  serializeTransaction,
} from "viem";

/** A plain native transfer: what a send costs where no code runs on receipt. */
export const plainTransferGas = 21_000n;
// A typical ERC-20 transfer to an address that already holds the token costs ~35-55k gas;
// 65k leaves room for a first-time recipient slot and proxy tokens such as USDC.
export const tokenTransferGas = 65_000n;

/**
 * The two sends presend prices, to `address` on `chain`, as unsigned EIP-1559 transactions: what
 * an OP-stack GasPriceOracle's getL1Fee(bytes) is given to price their L1 data fee (it adds the
 * signature's bytes itself). The fee follows the transaction's size, so the fields are typical
 * ones: a few sends' nonce, fees of a cheap rollup, 0.1 ETH or 1,000 USDC.
 * @example typicalTransfers(recipient, chains.base).nativeTransfer // "0x02f0822105..."
 */
export function typicalTransfers(
  address: Address,
  chain: ChainInfo,
): { nativeTransfer: Hex; tokenTransfer: Hex } {
  const common = {
    type: "eip1559",
    chainId: chain.id,
    nonce: 100,
    maxPriorityFeePerGas: parseGwei("0.001"),
    maxFeePerGas: parseGwei("0.01"),
  } as const;
  return {
    nativeTransfer: serializeTransaction({
      ...common,
      gas: plainTransferGas,
      to: address,
      value: parseEther("0.1"),
    }),
    tokenTransfer: serializeTransaction({
      ...common,
      gas: tokenTransferGas,
      to: chain.usdc.address,
      data: encodeFunctionData({
        abi: erc20Abi,
        functionName: "transfer",
        args: [address, 1_000n * 10n ** BigInt(chain.usdc.decimals)],
      }),
    }),
  };
}
