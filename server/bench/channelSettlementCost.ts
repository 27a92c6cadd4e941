import {
  devnetClient,
  devnetPrivateKey,
  measureSettlementCost,
  mintStablecoin,
  type SettlementCost,
  type World,
} from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";

/**
 * On-chain transactions and gas for `checks` paid checks, `exact` against a `batch-settlement`
 * channel, with the official @x402/evm facilitator on the local Base chain. Keys of its own,
 * funded here, so the paid-check benches' settlement queue keeps its nonces.
 * @example const { exact, channel } = await benchChannelSettlementCost(world, { checks: 100 });
 */
export async function benchChannelSettlementCost(
  world: World,
  options: { checks: number },
): Promise<{ exact: SettlementCost; channel: SettlementCost }> {
  const key = (role: string) => devnetPrivateKey(`bench: channel ${role}`);
  const payer = privateKeyToAccount(key("payer"));
  const facilitator = privateKeyToAccount(key("facilitator"));
  const client = devnetClient("base", world.chains.base.rpcUrl);
  await client.setBalance({ address: payer.address, value: parseEther("1") });
  await client.setBalance({ address: facilitator.address, value: parseEther("10") });
  await mintStablecoin(client, {
    token: chains.base.usdc.address,
    minter: privateKeyToAccount(world.accounts.faucet.privateKey),
    to: payer.address,
    amount: 2n * BigInt(options.checks) * routePrices.check,
  });
  return measureSettlementCost({
    rpcUrl: world.chains.base.rpcUrl,
    payerKey: key("payer"),
    sessionKey: key("session key"),
    facilitatorKey: key("facilitator"),
    receiverAuthorizerKey: key("receiver authorizer"),
    payTo: privateKeyToAccount(key("pay-to")).address,
    checks: options.checks,
  });
}
