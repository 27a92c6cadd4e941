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
  /**
   * Funds the recipients seeding (given its balance like the faucet), so that seeding runs beside
   * the demo world's without sharing the faucet's nonces.
   */
  recipientsFunder: account("recipients-funder"),
  /** Owner of the Safe 1.3.0 L2 (with modularAccountOwner); executes its one transaction. */
  safe130Owner: account("safe130-owner"),
  /**
   * Deploys the recipients people really hit (recipientKinds.ts) on base: DemoEoaOnlyVault (0),
   * DemoOriginGate (1), two DemoModularAccounts (2, 3), two spam ERC-20s (4, 6), DemoMultiToken
   * (8), DemoUpgradeableToken (9) behind DemoProxy (10), the published UniswapV2Factory (11),
   * GnosisSafeL2 1.3.0 (17), GnosisSafeProxyFactory 1.3.0 (18), then its Safe (19), EIP7702StatelessDeleGator (20),
   * DemoCoinbaseSmartWallet (21) and two DemoProxy accounts on it (22, 23).
   */
  recipientsDeployer: account("recipients-deployer"),
  /**
   * Deploys them on ethereum (another key, so no address holds code on both chains):
   * DemoDepositForwarder (0), DemoOpStackMessenger (1), the published L1StandardBridge (2).
   */
  recipientsEthereumDeployer: account("recipients-ethereum-deployer"),
  /** The only payer DemoOriginGate accepts (its tx.origin check). */
  originGateCustomer: account("origin-gate-customer"),
  /** Owner key of the DemoModularAccounts; signs the used one's UserOperation. */
  modularAccountOwner: account("modular-account-owner"),
  /** Owner key of the Coinbase-Smart-Wallet-like accounts; signs the used one's UserOperation. */
  coinbaseWalletOwner: account("coinbase-wallet-owner"),
  /** Their second owner (multi-owner, as Coinbase Smart Wallet allows); never signs. */
  coinbaseWalletBackupOwner: account("coinbase-wallet-backup-owner"),
  /** EOA on base that delegated to MetaMask's EIP7702StatelessDeleGator and used it. */
  metaMaskDelegatedOnBase: account("eip7702-metamask-on-base"),
  /** Holds only two ERC-20s presend does not read (spam), never sent anything, on base. */
  spamTokensOnlyOnBase: account("spam-tokens-only-on-base"),
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
  /**
   * The exchange's collector wallet: exchangeDeposit sweeps USDC to it on base (listed as
   * exchange-collector in the demo list), and DemoDepositForwarder forwards ether to it on ethereum.
   */
  exchangeCollector: account("exchange-collector"),
  /** Owners of the demo Safes (A executes the used Safe's transaction; B and C never transact). */
  multisigOwnerA: account("multisig-owner-a"),
  multisigOwnerB: account("multisig-owner-b"),
  multisigOwnerC: account("multisig-owner-c"),
} satisfies Record<string, DevnetAccount>;
