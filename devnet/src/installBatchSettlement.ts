import { BATCH_SETTLEMENT_ADDRESS, ERC3009_DEPOSIT_COLLECTOR_ADDRESS } from "@x402/evm";
import { artifacts } from "./contracts/artifacts";
import type { DevnetClient } from "./devnetClient";

/**
 * Installs the x402 `batch-settlement` escrow and its EIP-3009 deposit collector at the canonical
 * addresses `@x402/evm` calls (`BATCH_SETTLEMENT_ADDRESS`, `ERC3009_DEPOSIT_COLLECTOR_ADDRESS`).
 * Both keep no constructor state, so their runtime code is all they need.
 * @example await installBatchSettlement(devnetClient("base", rpcUrl));
 */
export async function installBatchSettlement(client: DevnetClient): Promise<void> {
  await Promise.all([
    client.setCode({
      address: BATCH_SETTLEMENT_ADDRESS,
      bytecode: artifacts.PresendBatchSettlement.deployedBytecode,
    }),
    client.setCode({
      address: ERC3009_DEPOSIT_COLLECTOR_ADDRESS,
      bytecode: artifacts.PresendErc3009DepositCollector.deployedBytecode,
    }),
  ]);
}
