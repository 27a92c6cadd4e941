import { multicall3Address } from "@presend/shared/chains/chains";
import { artifacts } from "./contracts/artifacts";
import type { DevnetClient } from "./devnetClient";

/**
 * Installs Multicall3 at its canonical address. viem's multicall and the x402 facilitator's
 * failure diagnostics need it: without it every failed payment reads as a generic simulation error.
 * @example await installMulticall3(client);
 */
export async function installMulticall3(client: DevnetClient): Promise<void> {
  await client.setCode({
    address: multicall3Address,
    bytecode: artifacts.Multicall3.deployedBytecode,
  });
}
