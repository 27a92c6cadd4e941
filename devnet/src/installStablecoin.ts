import type { Account, Address } from "viem";
import { artifacts } from "./contracts/artifacts";
import type { DevnetClient } from "./devnetClient";

export type StablecoinSpec = {
  address: Address;
  /** EIP-712 domain name, e.g. "USD Coin". */
  name: string;
  symbol: string;
  /** EIP-712 domain version, e.g. "2". */
  version: string;
  decimals: number;
};

/**
 * Installs the EIP-3009 PresendStablecoin runtime code at `address` (anvil_setCode) and
 * initialises it in a transaction from `minter`, who must hold gas money and may then mint.
 * @example await installStablecoin(client, { ...chains.base.usdc, name: "USD Coin", version: "2", minter });
 */
export async function installStablecoin(
  client: DevnetClient,
  options: StablecoinSpec & { minter: Account },
): Promise<void> {
  const { address, name, symbol, version, decimals, minter } = options;
  await client.setCode({ address, bytecode: artifacts.PresendStablecoin.deployedBytecode });
  await client.confirm(
    client.writeContract({
      account: minter,
      address,
      abi: artifacts.PresendStablecoin.abi,
      functionName: "initialize",
      args: [name, symbol, version, decimals, minter.address],
    }),
  );
}
