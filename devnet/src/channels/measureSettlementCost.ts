import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { ExactEvmScheme as ExactClientScheme } from "@x402/evm/exact/client";
import { ExactEvmScheme as ExactFacilitatorScheme } from "@x402/evm/exact/facilitator";
import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetClient } from "../devnetClient";
import { devnetFacilitatorSigner } from "../devnetFacilitatorSigner";
import { startChannelStack } from "./startChannelStack";

/** What settling a number of checks costs on chain: the facilitator's transactions and their gas. */
export type SettlementCost = { checks: number; transactions: number; gasUsed: bigint };

export type SettlementCostOptions = {
  rpcUrl: string;
  /** Pays both ways: needs 2 × checks × price in USDC. */
  payerKey: Hex;
  sessionKey: Hex;
  /** Sends every transaction (its own nonces: nothing else may send from it meanwhile). */
  facilitatorKey: Hex;
  receiverAuthorizerKey: Hex;
  payTo: Address;
  checks: number;
};

/**
 * The same number of paid checks settled both ways with the official `@x402/evm` code on the local
 * Base chain: `exact` (one EIP-3009 transferWithAuthorization per check) against a
 * `batch-settlement` channel (one deposit sized for all of them, a voucher per check, one claim,
 * one settle). Counts the facilitator's transactions by its nonce and sums their receipts' gas.
 * @example const { exact, channel } = await measureSettlementCost({ ...keys, rpcUrl, payTo, checks: 100 });
 */
export async function measureSettlementCost(
  options: SettlementCostOptions,
): Promise<{ exact: SettlementCost; channel: SettlementCost }> {
  const client = devnetClient("base", options.rpcUrl);
  const facilitatorAccount = privateKeyToAccount(options.facilitatorKey);
  const sent = () => client.getTransactionCount({ address: facilitatorAccount.address });
  const gasOf = async (hashes: Hex[]) => {
    const receipts = await Promise.all(
      hashes.map((hash) => client.waitForTransactionReceipt({ hash })),
    );
    return receipts.reduce((total, receipt) => total + receipt.gasUsed, 0n);
  };
  const cost = async (before: number, hashes: Hex[]): Promise<SettlementCost> => {
    const transactions = (await sent()) - before;
    if (transactions !== hashes.length) {
      throw new ConfigurationError(
        `the facilitator sent ${transactions} transactions but reported ${hashes.length}`,
      );
    }
    return { checks: options.checks, transactions, gasUsed: await gasOf(hashes) };
  };

  // exact: the scheme every check uses today.
  const requirements: PaymentRequirements = {
    scheme: "exact",
    network: `eip155:${chains.base.id}`,
    asset: chains.base.usdc.address,
    amount: String(routePrices.check),
    payTo: options.payTo,
    maxTimeoutSeconds: 60,
    extra: { ...nativeUsdcDomain },
  };
  const exactClient = new ExactClientScheme(
    toClientEvmSigner(privateKeyToAccount(options.payerKey), client),
  );
  const exactFacilitator = new ExactFacilitatorScheme(
    devnetFacilitatorSigner(client, facilitatorAccount),
  );
  const exactBefore = await sent();
  const exactHashes: Hex[] = [];
  for (let check = 0; check < options.checks; check += 1) {
    const created = await exactClient.createPaymentPayload(2, requirements);
    const payload = { ...created, accepted: requirements };
    const verified = await exactFacilitator.verify(payload, requirements);
    if (!verified.isValid) throw new ConfigurationError(`exact check ${check} was refused`);
    const settled = await exactFacilitator.settle(payload, requirements);
    if (!settled.success) throw new ConfigurationError(`exact check ${check} did not settle`);
    exactHashes.push(settled.transaction as Hex);
  }
  const exact = await cost(exactBefore, exactHashes);

  // batch-settlement: one deposit for all the checks, then vouchers, one claim, one settle.
  const stack = await startChannelStack({
    rpcUrl: options.rpcUrl,
    payerKey: options.payerKey,
    sessionKey: options.sessionKey,
    facilitatorKey: options.facilitatorKey,
    receiverAuthorizerKey: options.receiverAuthorizerKey,
    payTo: options.payTo,
    deposit: BigInt(options.checks) * routePrices.check,
  });
  const channelBefore = await sent();
  const channelHashes: Hex[] = [];
  for (let check = 0; check < options.checks; check += 1) {
    const payment = await stack.pay();
    if (!payment.paid) throw new ConfigurationError(`channel check ${check}: ${payment.reason}`);
    if (payment.settlement.transaction) channelHashes.push(payment.settlement.transaction as Hex);
  }
  for (const claim of await stack.manager.claim()) channelHashes.push(claim.transaction as Hex);
  channelHashes.push((await stack.manager.settle()).transaction as Hex);
  const channel = await cost(channelBefore, channelHashes);
  return { exact, channel };
}
