import type { Account, Address, TransactionReceipt } from "viem";
import { artifacts } from "./contracts/artifacts";
import type { DevnetClient } from "./devnetClient";

/**
 * Mints `amount` base units of an installed devnet stablecoin to `to` in a real transaction from
 * its minter (a Mint and a Transfer event from the zero address, like USDC's own mint).
 * @example await mintStablecoin(client, { token: chains.base.usdc.address, minter, to, amount: 1_000_000n });
 */
export function mintStablecoin(
  client: DevnetClient,
  options: { token: Address; minter: Account; to: Address; amount: bigint },
): Promise<TransactionReceipt> {
  return client.confirm(
    client.writeContract({
      account: options.minter,
      address: options.token,
      abi: artifacts.PresendStablecoin.abi,
      functionName: "mint",
      args: [options.to, options.amount],
    }),
  );
}
