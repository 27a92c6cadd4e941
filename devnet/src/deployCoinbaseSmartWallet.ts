import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { type Address, encodeFunctionData, type PrivateKeyAccount, pad, parseEther } from "viem";
import { artifacts } from "./contracts/artifacts";
import type { DevnetClient } from "./devnetClient";
import { recipientKinds } from "./recipientKinds";

/**
 * Deploys a person's Coinbase-Smart-Wallet-like account on the local Base chain: an ERC-1967
 * proxy (DemoProxy) on the seeded DemoCoinbaseSmartWallet implementation, initialized with
 * `owner` in the deploying transaction, as Coinbase's factory does. Its signatures are the
 * owner's over the account's replay-safe hash, wrapped with the owner's index (viem's
 * `toCoinbaseSmartAccount` makes them). `deployer` is given the ETH for gas by anvil, so callers
 * share no nonces.
 * @returns the account's address
 * @example const account = await deployCoinbaseSmartWallet(base, { deployer, owner: owner.address });
 */
export async function deployCoinbaseSmartWallet(
  client: DevnetClient,
  options: { deployer: PrivateKeyAccount; owner: Address },
): Promise<Address> {
  await client.setBalance({ address: options.deployer.address, value: parseEther("1") });
  const initialize = encodeFunctionData({
    abi: artifacts.DemoCoinbaseSmartWallet.abi,
    functionName: "initialize",
    // Owners as Coinbase Smart Wallet keeps them: abi.encode(address), 32 bytes each.
    args: [[pad(options.owner)]],
  });
  const receipt = await client.confirm(
    client.deployContract({
      account: options.deployer,
      ...artifacts.DemoProxy,
      args: [recipientKinds.coinbaseWalletImplementationOnBase, initialize],
    }),
  );
  if (!receipt.contractAddress) throw new UpstreamError("the smart account did not deploy");
  return receipt.contractAddress;
}
