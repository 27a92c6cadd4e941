import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { Network, SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/facilitator";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  http,
  type TypedDataDefinition,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { boundedFetch } from "../../http/boundedFetch";
import { createSettlementSender } from "./createSettlementSender";
import type { SenderJournal } from "./fileSenderJournal";

export type LocalFacilitatorOptions = {
  network: Network;
  /** The Base JSON-RPC the facilitator reads and settles on. */
  rpcUrl: string;
  /** Key of the account that submits transferWithAuthorization and pays its gas. */
  privateKey: Hex;
  /** Per JSON-RPC call (default 5 s). */
  rpcTimeoutMs?: number;
  /** How long a settlement may take to be mined before it is reported pending (default 30 s). */
  confirmationTimeoutMs?: number;
  /** Keeps unmined settlements across a restart (the facilitator service's journal file). */
  journal?: SenderJournal;
  onError?: (error: unknown) => void;
  /** Also settle x402 `batch-settlement` (deposits, claims, settlements, refunds), same queue. */
  batchSettlement?: boolean;
};

export type LocalFacilitator = FacilitatorClient & {
  /** The gas-paying settlement account. */
  address: Address;
  /**
   * The settlement transaction broadcast for this authorization, or null when none was:
   * a settlement that failed with null here certainly charged nothing.
   */
  broadcastFor(payer: string, nonce: string): Hex | null;
};

/**
 * An x402 facilitator running in process (x402Facilitator + the official EVM exact scheme),
 * settling on the given Base RPC through one nonce-managed queue (createSettlementSender), its
 * RPC answers bounded in size and time, exposed as the FacilitatorClient a resource server uses.
 * @example const facilitator = createLocalFacilitator({ network: "eip155:8453", rpcUrl, privateKey });
 */
export function createLocalFacilitator(options: LocalFacilitatorOptions): LocalFacilitator {
  const account = privateKeyToAccount(options.privateKey);
  const chain = { ...base, rpcUrls: { default: { http: [options.rpcUrl] } } };
  const transport = http(options.rpcUrl, {
    fetchFn: boundedFetch(),
    timeout: options.rpcTimeoutMs ?? 5_000,
    retryCount: 1,
  });
  const client = createPublicClient({ chain, transport });
  const wallet = createWalletClient({ account, chain, transport });
  const sender = createSettlementSender({
    client: client as never,
    wallet,
    ...(options.confirmationTimeoutMs !== undefined && {
      confirmationTimeoutMs: options.confirmationTimeoutMs,
    }),
    ...(options.journal && { journal: options.journal }),
    ...(options.onError && { onError: options.onError }),
  });
  const broadcasts = new Map<string, Hex>();
  const keyOf = (payer: string, nonce: string) => `${payer.toLowerCase()}:${nonce.toLowerCase()}`;
  // An explicit adapter: the scheme's signer types are looser than viem's, and spreading the
  // client into toFacilitatorEvmSigner does not typecheck under strict mode.
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
    async writeContract(args) {
      const data = encodeFunctionData({
        abi: args.abi as Abi,
        functionName: args.functionName,
        args: args.args,
      });
      const hash = await sender.send({
        to: args.address,
        data: args.dataSuffix ? (`${data}${args.dataSuffix.slice(2)}` as Hex) : data,
        ...(args.gas !== undefined && { gas: args.gas }),
      });
      if (args.functionName === "transferWithAuthorization") {
        const [from, , , , , nonce] = args.args as [string, string, bigint, bigint, bigint, Hex];
        broadcasts.set(keyOf(from, nonce), hash);
      }
      return hash;
    },
    sendTransaction: (args) => sender.send({ to: args.to, data: args.data }),
    waitForTransactionReceipt: (args) => sender.waitForReceipt(args.hash),
    getCode: (args) => client.getCode(args),
  });
  const facilitator = new x402Facilitator().register(options.network, new ExactEvmScheme(signer));
  if (options.batchSettlement) {
    facilitator.register(options.network, new BatchSettlementEvmScheme(signer));
  }
  return {
    address: account.address,
    broadcastFor(payer, nonce) {
      const hash = broadcasts.get(keyOf(payer, nonce));
      return hash === undefined ? null : sender.finalHash(hash);
    },
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    async settle(payload, requirements) {
      const result = await facilitator.settle(payload, requirements);
      // A replaced transaction: name the one that carries the transfer.
      return result.transaction
        ? { ...result, transaction: sender.finalHash(result.transaction as Hex) }
        : result;
    },
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}
