import type { ChainName } from "@presend/shared/chains/chains";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  createTestClient,
  type Hash,
  http,
  publicActions,
  type TransactionReceipt,
  walletActions,
} from "viem";
import { localViemChain } from "./localViemChain";

/**
 * One viem client with anvil test actions, reads and writes for a local chain, plus `confirm`:
 * waits for a transaction's receipt (instant under anvil's automine) and throws if it reverted.
 * @example const client = devnetClient("base", rpcUrl); await client.confirm(client.sendTransaction(...));
 */
export function devnetClient(name: ChainName, rpcUrl: string) {
  return createTestClient({
    mode: "anvil",
    chain: localViemChain(name, rpcUrl),
    transport: http(rpcUrl),
    // Blocks arrive instantly or every second; viem's 4 s default would dominate start-up.
    pollingInterval: 25,
  })
    .extend(publicActions)
    .extend(walletActions)
    .extend((client) => ({
      async confirm(hash: Hash | Promise<Hash>): Promise<TransactionReceipt> {
        const receipt = await client.waitForTransactionReceipt({ hash: await hash });
        if (receipt.status !== "success") {
          throw new UpstreamError(
            `devnet transaction ${receipt.transactionHash} on ${name} reverted`,
          );
        }
        return receipt;
      },
    }));
}

export type DevnetClient = ReturnType<typeof devnetClient>;
