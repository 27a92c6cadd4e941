import { AsyncLocalStorage } from "node:async_hooks";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { x402Facilitator } from "@x402/core/facilitator";
import type { FacilitatorClient } from "@x402/core/server";
import type { Network, SupportedResponse } from "@x402/core/types";
import { toFacilitatorEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme } from "@x402/evm/batch-settlement/facilitator";
import { ExactEvmScheme } from "@x402/evm/exact/facilitator";
import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  type Hex,
  type TypedDataDefinition,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { keyHiddenFallbackTransport } from "../../http/keyHiddenFallbackTransport";
import { shownRpcUrl } from "../../http/shownRpcUrl";
import { createSettlementSender } from "./createSettlementSender";
import type { SenderJournal } from "./fileSenderJournal";
import { createSettlementBroadcasts } from "./settlementBroadcasts";

export type LocalFacilitatorOptions = {
  network: Network;
  /**
   * The Base JSON-RPC URLs the facilitator reads and settles through, asked in order: a call the
   * first does not answer goes to the next (keyHiddenFallbackTransport).
   */
  rpcUrls: readonly string[];
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
  /** Clock of the broadcasts' window (tests move it). */
  now?: () => number;
};

export type LocalFacilitator = FacilitatorClient & {
  /** The gas-paying settlement account. */
  address: Address;
  /**
   * The settlement transaction broadcast for this authorization, or null when none was:
   * a settlement that failed with null here certainly charged nothing. Undefined when no
   * settlement of it is known here (none ran here, or it ended longer ago than
   * `broadcastKeptMs`): that says nothing either way.
   */
  broadcastFor(payer: string, nonce: string): Hex | null | undefined;
  /** Authorizations whose broadcast is held now (those settling, and the window's). */
  heldBroadcasts(): number;
};

/**
 * An x402 facilitator running in process (x402Facilitator + the official EVM exact scheme),
 * settling on the given Base RPCs (in order, the next one when a call goes unanswered) through one
 * nonce-managed queue (createSettlementSender), its RPC answers bounded in size and time and a
 * provider's key kept out of its errors (keyHiddenFallbackTransport), exposed as the FacilitatorClient a resource server uses.
 * The official exact scheme starts reading the asset's code before it checks the signature, and
 * does not wait for that read when it refuses early (a wrong amount, an expired authorization):
 * a failed read there is a rejection nobody handles, which ends the process. So the asset's code
 * is read here first, where a failure is this call's own, and once read it answers the scheme's
 * reads when the RPC fails: a deployed contract's code does not go away (EIP-6780).
 * The scheme also turns a failed read into a refusal (a payer's code it could not read makes a
 * correct signature "invalid"): a refusal reached while one of this call's reads failed is not a
 * verdict on the payment, and verify throws instead (the resource server answers it as the
 * facilitator or the payment network being unavailable: nothing charged, try again).
 * @example const facilitator = createLocalFacilitator({ network: "eip155:8453", rpcUrls, privateKey });
 */
export function createLocalFacilitator(options: LocalFacilitatorOptions): LocalFacilitator {
  const account = privateKeyToAccount(options.privateKey);
  const chain = { ...base, rpcUrls: { default: { http: options.rpcUrls.map(shownRpcUrl) } } };
  const transport = keyHiddenFallbackTransport(options.rpcUrls, {
    timeoutMs: options.rpcTimeoutMs ?? 5_000,
    retryCount: 1,
  });
  const client = createPublicClient({ chain, transport });
  // Whether a chain read failed within one verify call (and the promises it started). A
  // contract that reverts has answered (an authorization already used, a balance too low): only
  // a read the chain did not answer makes the call's refusal untrustworthy.
  const verifyReads = new AsyncLocalStorage<{ failed: boolean }>();
  const watched = <T>(read: Promise<T>): Promise<T> =>
    read.catch((error: unknown) => {
      const call = verifyReads.getStore();
      if (call && !isRevert(error)) call.failed = true;
      throw error;
    });
  // Asset contracts' code as read once, by lowercase address.
  const assetCodes = new Map<string, Hex>();
  const readAssetCode = async (asset: string) => {
    if (assetCodes.has(asset.toLowerCase())) return;
    const code = await client.getCode({ address: asset as Address });
    if (code && code !== "0x") assetCodes.set(asset.toLowerCase(), code);
  };
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
  // Held per settlement call and a window after it, not for the process's life.
  const broadcasts = createSettlementBroadcasts(options.now ? { now: options.now } : {});
  // An explicit adapter: the scheme's signer types are looser than viem's, and spreading the
  // client into toFacilitatorEvmSigner does not typecheck under strict mode.
  const signer = toFacilitatorEvmSigner({
    address: account.address,
    readContract: (args) =>
      watched(
        client.readContract({
          address: args.address,
          abi: args.abi as Abi,
          functionName: args.functionName,
          args: args.args ?? [],
        }),
      ),
    verifyTypedData: (args) =>
      watched(
        client.verifyTypedData({
          address: args.address,
          signature: args.signature,
          ...(args as unknown as TypedDataDefinition),
        }),
      ),
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
        broadcasts.broadcast(from, nonce, hash);
      }
      return hash;
    },
    sendTransaction: (args) => sender.send({ to: args.to, data: args.data }),
    waitForTransactionReceipt: (args) => sender.waitForReceipt(args.hash),
    getCode: (args) =>
      watched(
        client.getCode(args).catch((error: unknown) => {
          const known = assetCodes.get(args.address.toLowerCase());
          if (known === undefined) throw error;
          return known;
        }),
      ),
  });
  const facilitator = new x402Facilitator().register(options.network, new ExactEvmScheme(signer));
  if (options.batchSettlement) {
    facilitator.register(options.network, new BatchSettlementEvmScheme(signer));
  }
  return {
    address: account.address,
    broadcastFor(payer, nonce) {
      const hash = broadcasts.of(payer, nonce);
      return hash ? sender.finalHash(hash) : hash;
    },
    heldBroadcasts: () => broadcasts.size(),
    async verify(payload, requirements) {
      await readAssetCode(requirements.asset);
      const call = { failed: false };
      const answer = await verifyReads.run(call, () => facilitator.verify(payload, requirements));
      if (!answer.isValid && call.failed) {
        throw new UpstreamError("a read of the payment chain failed while verifying the payment", {
          code: "payment_chain_read_failed",
        });
      }
      return answer;
    },
    async settle(payload, requirements) {
      // Known as settling from before anything can be sent: a null broadcast then proves nothing
      // was. A channel's payload carries no EIP-3009 authorization.
      const authorization = eip3009Authorization(payload.payload);
      const ended = authorization && broadcasts.settling(authorization.from, authorization.nonce);
      try {
        await readAssetCode(requirements.asset);
        const result = await facilitator.settle(payload, requirements);
        // A replaced transaction: name the one that carries the transfer.
        return result.transaction
          ? { ...result, transaction: sender.finalHash(result.transaction as Hex) }
          : result;
      } finally {
        ended?.();
      }
    },
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

/** The payer and nonce of an exact payment's EIP-3009 authorization, null when it has none. */
function eip3009Authorization(payload: unknown): { from: string; nonce: string } | null {
  const authorization = (payload as { authorization?: { from?: unknown; nonce?: unknown } })
    ?.authorization;
  const from = authorization?.from;
  const nonce = authorization?.nonce;
  return typeof from === "string" && typeof nonce === "string" ? { from, nonce } : null;
}

/** A contract's own refusal (execution reverted), as opposed to a read that got no answer. */
function isRevert(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    error.walk((cause) => cause instanceof ContractFunctionRevertedError) !== null
  );
}
