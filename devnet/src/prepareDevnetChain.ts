import { type ChainName, chains } from "@presend/shared/chains/chains";
import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";
import { devnetStablecoins } from "./devnetStablecoins";
import { installBatchSettlement } from "./installBatchSettlement";
import { installMulticall3 } from "./installMulticall3";
import { installOpStackFeeOracle } from "./installOpStackFeeOracle";
import { installStablecoin } from "./installStablecoin";

/**
 * Turns a bare anvil chain into a copy of the mainnet's infrastructure: funds the faucet, installs
 * Multicall3 and the chain's stablecoins at their mainnet addresses (the faucet is their minter);
 * on Base and OP Mainnet, the GasPriceOracle that prices every send's L1 data fee;
 * on Base, where presend is paid, also the x402 batch-settlement escrow and deposit collector.
 * @example await prepareDevnetChain(devnetClient("base", rpcUrl), "base");
 */
export async function prepareDevnetChain(client: DevnetClient, name: ChainName): Promise<void> {
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  await client.setBalance({ address: faucet.address, value: parseEther("1000000") });
  await installMulticall3(client);
  // Until the first block is mined, eth_call sees block.timestamp ≈ 1, which would make every
  // EIP-3009 authorization look "not yet valid" or expired.
  await client.mine({ blocks: 1 });
  if (chains[name].opStack) await installOpStackFeeOracle(client);
  for (const token of devnetStablecoins(name)) {
    await installStablecoin(client, { ...token, minter: faucet });
  }
  if (name === "base") await installBatchSettlement(client);
}
