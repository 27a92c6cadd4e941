import { chains } from "@presend/shared/chains/chains";
import { type Address, parseEther, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { artifacts } from "./contracts/artifacts";
import { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";
import { mintStablecoin } from "./mintStablecoin";
import { senderWorld } from "./senderWorld";

const signer = (account: DevnetAccount) => privateKeyToAccount(account.privateKey);
const usdcUnits = (amount: string) => parseUnits(amount, 6);

/**
 * Seeds the sender-history rows on base with real transactions only: a victim that pays its
 * genuine counterparty, lookalikes planted by zero-value transferFrom (the local USDC, like the
 * real one, lets anyone move 0 "from" anyone: 0 never exceeds the allowance), an active lookalike
 * that sends through anvil's impersonation, a sprayed poisoning address, and an exchange deposit
 * address that sweeps to its collector.
 * @example await seedSenderWorldOnBase(baseClient);
 */
export async function seedSenderWorldOnBase(client: DevnetClient): Promise<void> {
  const usdc = chains.base.usdc.address;
  const abi = artifacts.PresendStablecoin.abi;
  const faucet = signer(devnetAccounts.faucet);
  const { poisoningVictim, genuineCounterparty, poisoner, sprayedPoisoner, listedScam } =
    devnetAccounts;
  const { exchangeDeposit, exchangeCollector } = devnetAccounts;
  const fund = (to: Address, ether: string) =>
    client.confirm(client.sendTransaction({ account: faucet, to, value: parseEther(ether) }));
  const transfer = (from: DevnetAccount, to: Address, amount: bigint) =>
    client.confirm(
      client.writeContract({
        account: signer(from),
        address: usdc,
        abi,
        functionName: "transfer",
        args: [to, amount],
      }),
    );
  const plant = (victim: Address, lookalike: Address) =>
    client.confirm(
      client.writeContract({
        account: signer(poisoner),
        address: usdc,
        abi,
        functionName: "transferFrom",
        args: [victim, lookalike, 0n],
      }),
    );

  // The sender with history and its genuine counterparty (which used its own key once).
  await fund(poisoningVictim.address, "1");
  await mintStablecoin(client, {
    token: usdc,
    minter: faucet,
    to: poisoningVictim.address,
    amount: usdcUnits("1000"),
  });
  for (let payment = 0; payment < senderWorld.genuinePayments; payment++) {
    await transfer(poisoningVictim, genuineCounterparty.address, usdcUnits("10"));
  }
  await fund(genuineCounterparty.address, "0.1");
  await client.confirm(
    client.sendTransaction({
      account: signer(genuineCounterparty),
      to: faucet.address,
      value: parseEther("0.01"),
    }),
  );

  // The poisoner plants both lookalikes in the victim's history.
  await fund(poisoner.address, "1");
  await plant(poisoningVictim.address, senderWorld.freshLookalike);
  await plant(poisoningVictim.address, senderWorld.activeLookalike);

  // The active lookalike sends two transactions of its own (no key: anvil impersonation).
  const active = senderWorld.activeLookalike;
  await fund(active, "0.1");
  await client.impersonateAccount({ address: active });
  for (let send = 0; send < 2; send++) {
    await client.confirm(
      client.sendTransaction({ account: active, to: faucet.address, value: parseEther("0.001") }),
    );
  }
  await client.stopImpersonatingAccount({ address: active });

  // A poisoning address sprayed into five unrelated histories.
  for (const victim of senderWorld.sprayVictims) await plant(victim, sprayedPoisoner.address);

  await fund(listedScam.address, "0.05");

  // An exchange deposit address: credited, then swept to the exchange's collector.
  await fund(exchangeDeposit.address, "0.01");
  const deposit = usdcUnits(senderWorld.depositUsdc);
  await mintStablecoin(client, {
    token: usdc,
    minter: faucet,
    to: exchangeDeposit.address,
    amount: deposit,
  });
  await transfer(exchangeDeposit, exchangeCollector.address, deposit);
}
