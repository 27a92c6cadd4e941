import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import type { ClientEvmSigner } from "@x402/evm";
import { type Address, createPublicClient, custom, type Hex } from "viem";
import { base } from "viem/chains";

/** A read-only eth_call on `chainId` through the page's wallet (see the wallet bridge). */
export type PageCall = (chainId: number, to: Address, data: Hex) => Promise<Hex>;

export type ContractReader = NonNullable<ClientEvmSigner["readContract"]>;

/**
 * The paying signer's chain reads for the x402 batch-settlement client (the escrow's
 * `channels(id)`, when a corrective answer asks it to resync a channel), over viem's public
 * client with the page's wallet as its only transport: eth_call on Base, and nothing else. The
 * page can forge the answer; the channel's vouchers stay bounded by what the session key signed
 * (createChannelAccess), so a forged read can only make a check fail, never pay more.
 * @example const readContract = createPageChainReader((chainId, to, data) => wallet.call(chainId, to, data))
 */
export function createPageChainReader(call: PageCall): ContractReader {
  const client = createPublicClient({
    chain: base,
    transport: custom(
      {
        async request({ method, params }: { method: string; params?: unknown }) {
          if (method !== "eth_call") {
            throw new UpstreamError(
              `Only eth_call is read through the page's wallet (${method}).`,
              {
                code: "not_a_read",
              },
            );
          }
          const [transaction] = params as [{ to: Address; data: Hex }];
          return call(base.id, transaction.to, transaction.data);
        },
      },
      // A refusal (no wallet, another chain) is an answer: asking again changes nothing.
      { retryCount: 0 },
    ),
  });
  return (args) => client.readContract(args as Parameters<typeof client.readContract>[0]);
}
