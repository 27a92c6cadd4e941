import type { Address, Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { devnetPrivateKey } from "./devnetPrivateKey";

export type DevnetAccount = { label: string; privateKey: Hex; address: Address };

function account(label: string): DevnetAccount {
  const privateKey = devnetPrivateKey(label);
  return { label, privateKey, address: privateKeyToAccount(privateKey).address };
}

/**
 * Every keyed account of the local world. Addresses are derived from the labels, so they are the
 * same on every run (README documents them). Devnet only: the keys are public.
 * @example const payer = privateKeyToAccount(devnetAccounts.payer.privateKey);
 */
export const devnetAccounts = {
  /** Funds everything and is the minter of every devnet stablecoin (active on all five chains). */
  faucet: account("faucet"),
  /** Demo client: ETH and USDC on base, never sent a transaction; signs x402 payments. */
  payer: account("payer"),
  /** Submits x402 settlements on base (pays the gas of transferWithAuthorization). */
  facilitator: account("facilitator"),
  /** Receives the service's payments on base; starts empty. */
  payTo: account("pay-to"),
  /** Active EOA on base: funded, then sent ETH, USDC and a contract call (verdict ok). */
  activeOnBase: account("active-on-base"),
  /** Never touched on any chain (verdict caution: fresh). */
  fresh: account("fresh"),
  /** Funded and active on arbitrum only (wrong network when the target is base). */
  activeOnArbitrumOnly: account("active-on-arbitrum-only"),
  /** EOA on base that delegated its code to Simple7702Account (a known wallet delegate) with EIP-7702. */
  delegatedOnBase: account("eip7702-delegated-on-base"),
  /** EOA on base whose key "was stolen": it delegated to DemoSweeper, which forwards every deposit. */
  sweptOnBase: account("eip7702-swept-on-base"),
  /** Where DemoSweeper sends what it sweeps. */
  sweeperThief: account("sweeper-thief"),
  /** Owner key of the ERC-4337 SimpleAccount on base; signs its UserOperation. */
  smartAccountOwner: account("smart-account-owner"),
  /** Submits the UserOperation to the EntryPoint (handleOps) and takes its fee. */
  bundler: account("bundler"),
  /** Holds ETH and USDC on base but never sent anything (nonce 0). */
  receiveOnlyOnBase: account("receive-only-on-base"),
  /** Holds only bridged USDC (USDC.e) on arbitrum. */
  bridgedUsdcOnlyOnArbitrum: account("bridged-usdc-only-on-arbitrum"),
  /**
   * Deploys on base: DemoGuestbook (nonce 0), DemoBatchExecutor (1), Safe 1.4.1 singleton (2),
   * SafeProxyFactory (3), Simple7702Account (4), DemoSweeper (5), DemoToken (6),
   * DemoCollection (7), SimpleAccountFactory (8).
   */
  baseDeployer: account("base-deployer"),
  /** Deploys the Safe 1.4.1 singleton (nonce 0) and SafeProxyFactory (nonce 1) on ethereum. */
  ethereumDeployer: account("ethereum-deployer"),
  /** A sender with history on base: paid genuineCounterparty 6 times in USDC (address poisoning rows). */
  poisoningVictim: account("poisoning-victim"),
  /** The address poisoningVictim really pays; it sent one transaction of its own. */
  genuineCounterparty: account("genuine-counterparty"),
  /** Plants zero-value transferFrom(victim, lookalike, 0) calls on base USDC (it needs no allowance). */
  poisoner: account("poisoner"),
  /** A poisoning address sprayed into five unrelated histories with zero-value transfers. */
  sprayedPoisoner: account("sprayed-poisoner"),
  /** Listed as a scam on base in the demo address list. */
  listedScam: account("listed-scam"),
  /** An exchange deposit address on base: it received USDC and swept it to exchangeCollector. */
  exchangeDeposit: account("exchange-deposit"),
  /** The exchange's collector wallet on base, listed as exchange-collector in the demo list. */
  exchangeCollector: account("exchange-collector"),
  /** Owners of the demo Safes (A executes the used Safe's transaction; B and C never transact). */
  multisigOwnerA: account("multisig-owner-a"),
  multisigOwnerB: account("multisig-owner-b"),
  multisigOwnerC: account("multisig-owner-c"),
} satisfies Record<string, DevnetAccount>;
