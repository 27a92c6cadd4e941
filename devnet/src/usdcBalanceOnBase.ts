import { chains } from "@presend/shared/chains/chains";
import { type Address, createPublicClient, erc20Abi, http } from "viem";
import type { WorldChain } from "./startWorld";

/**
 * A reader of USDC balances on a world's Base chain, in base units (what payments move).
 * @example const usdc = usdcBalanceOnBase(world.chains.base); await usdc(payTo.address);
 */
export function usdcBalanceOnBase(base: Pick<WorldChain, "rpcUrl">) {
  const client = createPublicClient({ transport: http(base.rpcUrl) });
  return (address: Address): Promise<bigint> =>
    client.readContract({
      address: chains.base.usdc.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [address],
    });
}
