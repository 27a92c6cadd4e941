import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import type { Abi, PrivateKeyAccount, TypedDataDefinition } from "viem";
import type { DevnetClient } from "./devnetClient";

/**
 * The signer an official `@x402/evm` facilitator scheme sends and reads through, over a devnet
 * client and one key. An explicit adapter: the scheme's signer types are looser than viem's, and
 * spreading the client into toFacilitatorEvmSigner does not typecheck under strict mode.
 * @example new ExactEvmScheme(devnetFacilitatorSigner(client, privateKeyToAccount(key)));
 */
export function devnetFacilitatorSigner(
  client: DevnetClient,
  account: PrivateKeyAccount,
): FacilitatorEvmSigner {
  return toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) =>
      client.readContract({ ...args, abi: args.abi as Abi, args: args.args ?? [] }),
    verifyTypedData: (args) => client.verifyTypedData(args as TypedDataDefinition & typeof args),
    writeContract: (args) => client.writeContract({ ...args, abi: args.abi as Abi, account }),
    sendTransaction: (args) => client.sendTransaction({ ...args, account }),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
}
