import {
  deployCoinbaseSmartWallet,
  devnetClient,
  devnetPrivateKey,
  mintStablecoin,
  type World,
} from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { toCoinbaseSmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { createTestWallet, type TestWallet } from "../fixtures/testWallet";

/**
 * The test wallet as a Coinbase Smart Wallet user's: its account is a Coinbase-Smart-Wallet-like
 * account on the world's Base that holds `usdc` (base units), owned by a key named after
 * `label`. Deployed, its signatures are ERC-1271 (the owner's, wrapped); not deployed
 * (counterfactual), they are ERC-6492-wrapped with the factory that would deploy it.
 * @example const wallet = await smartAccountWallet(api.world, { label: "paid", deployed: true, usdc: 1_000_000n });
 */
export async function smartAccountWallet(
  world: World,
  options: { label: string; deployed: boolean; usdc: bigint },
): Promise<TestWallet> {
  const base = devnetClient("base", world.chains.base.rpcUrl);
  const ownerKey = devnetPrivateKey(`e2e-smart-account-owner-${options.label}`);
  const owner = privateKeyToAccount(ownerKey);
  const address = options.deployed
    ? await deployCoinbaseSmartWallet(base, {
        deployer: privateKeyToAccount(devnetPrivateKey("e2e-smart-account-deployer")),
        owner: owner.address,
      })
    : privateKeyToAccount(devnetPrivateKey(`e2e-smart-account-counterfactual-${options.label}`))
        .address;
  await mintStablecoin(base, {
    token: chains.base.usdc.address,
    minter: privateKeyToAccount(world.accounts.faucet.privateKey),
    to: address,
    amount: options.usdc,
  });
  const smartAccount = await toCoinbaseSmartAccount({
    client: base,
    owners: [owner],
    address,
    version: "1",
  });
  return createTestWallet({ privateKey: ownerKey, smartAccount });
}
