import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { Network, SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import {
  type Abi,
  type Address,
  createWalletClient,
  type Hex,
  http,
  publicActions,
  type TypedDataDefinition,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";

export type LocalFacilitatorOptions = {
  network: Network;
  /** The Base JSON-RPC the facilitator reads and settles on. */
  rpcUrl: string;
  /** Key of the account that submits transferWithAuthorization and pays its gas. */
  privateKey: Hex;
};

export type LocalFacilitator = FacilitatorClient & {
  /** The gas-paying settlement account. */
  address: Address;
};

/**
 * An x402 facilitator running in process (x402Facilitator + the EVM exact scheme), settling
 * on the given Base RPC, exposed as the FacilitatorClient a resource server talks to.
 * @example const facilitator = createLocalFacilitator({ network: "eip155:8453", rpcUrl, privateKey });
 */
export function createLocalFacilitator(options: LocalFacilitatorOptions): LocalFacilitator {
  const account = privateKeyToAccount(options.privateKey);
  const chain = { ...base, rpcUrls: { default: { http: [options.rpcUrl] } } };
  const client = createWalletClient({ account, chain, transport: http(options.rpcUrl) }).extend(
    publicActions,
  );
  // An explicit adapter: the scheme's signer types are looser than viem's, and spreading the
  // client into toFacilitatorEvmSigner does not typecheck under strict mode (DESIGN §6).
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) =>
      client.readContract({
        address: args.address,
        abi: args.abi as Abi,
        functionName: args.functionName,
        args: args.args ?? [],
      }),
    verifyTypedData: (args) =>
      client.verifyTypedData({
        address: args.address,
        signature: args.signature,
        ...(args as unknown as TypedDataDefinition),
      }),
    writeContract: (args) =>
      client.writeContract({
        address: args.address,
        abi: args.abi as Abi,
        functionName: args.functionName,
        args: args.args,
        ...(args.gas !== undefined && { gas: args.gas }),
        ...(args.dataSuffix !== undefined && { dataSuffix: args.dataSuffix }),
      }),
    sendTransaction: (args) => client.sendTransaction({ to: args.to, data: args.data }),
    waitForTransactionReceipt: (args) => client.waitForTransactionReceipt(args),
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator().register(options.network, new ExactEvmScheme(signer));
  return {
    address: account.address,
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}
