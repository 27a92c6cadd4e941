import type { Level } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { type Address, getContractAddress, zeroAddress } from "viem";
import { devnetAccounts } from "./devnetAccounts";

export type DemoAddress = {
  label: string;
  address: Address;
  /** The chain the demo checks against (the `chain` of the request). */
  chain: ChainName;
  /** Expected verdict level of POST /check and POST /deep for this address on `chain`. */
  expected: { check: Level; deep: Level };
  description: string;
};

/** Contracts the seeding deploys with real transactions; their addresses follow from deployer nonces. */
export const demoContracts = {
  /** DemoGuestbook on base: base deployer, nonce 0. */
  guestbookOnBase: getContractAddress({ from: devnetAccounts.baseDeployer.address, nonce: 0n }),
  /** DemoBatchExecutor on base (the EIP-7702 delegate): base deployer, nonce 1. */
  batchExecutorOnBase: getContractAddress({ from: devnetAccounts.baseDeployer.address, nonce: 1n }),
  /** DemoMultisig on ethereum only: ethereum deployer, nonce 0. */
  multisigOnEthereum: getContractAddress({
    from: devnetAccounts.ethereumDeployer.address,
    nonce: 0n,
  }),
};

export const burnAddress: Address = "0x000000000000000000000000000000000000dEaD";

/**
 * The demo world: one address per verdict path, the same on every run, with the verdict the
 * engine is expected to give. The README lists them; tests check the chain state behind each.
 * @example const usdc = demoAddresses.find((demo) => demo.label === "usdc-contract-on-base");
 */
export const demoAddresses: DemoAddress[] = [
  {
    label: "active-eoa-on-base",
    address: devnetAccounts.activeOnBase.address,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    description:
      "EOA with outgoing transactions on base (ETH, USDC and a contract call) and ETH + USDC balances.",
  },
  {
    label: "fresh-address",
    address: devnetAccounts.fresh.address,
    chain: "base",
    expected: { check: "caution", deep: "caution" },
    description: "Never used on any of the five chains: no transactions, no balances, no code.",
  },
  {
    label: "generic-contract-on-base",
    address: demoContracts.guestbookOnBase,
    chain: "base",
    expected: { check: "warn", deep: "warn" },
    description:
      "DemoGuestbook, an application contract that is neither a token nor a wallet; it cannot pass funds on.",
  },
  {
    label: "multisig-on-ethereum-only",
    address: demoContracts.multisigOnEthereum,
    chain: "base",
    expected: { check: "caution", deep: "danger" },
    description:
      "Safe-like multisig (getOwners, getThreshold 2) deployed on ethereum only. On base it looks fresh to /check; /deep sees code on ethereum and none on base: funds sent on base could be unrecoverable.",
  },
  {
    label: "eoa-active-on-arbitrum-only",
    address: devnetAccounts.activeOnArbitrumOnly.address,
    chain: "base",
    expected: { check: "caution", deep: "warn" },
    description:
      "EOA with transactions and balances on arbitrum only. On base /check sees a fresh address; /deep flags the wrong network.",
  },
  {
    label: "eip7702-delegated-eoa-on-base",
    address: devnetAccounts.delegatedOnBase.address,
    chain: "base",
    expected: { check: "caution", deep: "caution" },
    description: `EOA that delegated to DemoBatchExecutor (${demoContracts.batchExecutorOnBase}) with an EIP-7702 transaction: code 0xef0100 + delegate, nonce 2.`,
  },
  {
    label: "usdc-contract-on-base",
    address: chains.base.usdc.address,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    description: "The USDC token contract itself: tokens sent to it are lost.",
  },
  {
    label: "bridged-usdc-only-on-arbitrum",
    address: devnetAccounts.bridgedUsdcOnlyOnArbitrum.address,
    chain: "arbitrum",
    expected: { check: "caution", deep: "caution" },
    description:
      "Holds only bridged USDC.e on arbitrum (no native USDC, no ETH, nonce 0): the recipient may expect native USDC.",
  },
  {
    label: "zero-address",
    address: zeroAddress,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    description: "The zero address: nobody holds its key.",
  },
  {
    label: "burn-address",
    address: burnAddress,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    description:
      "The conventional burn address 0x…dEaD (holds 1 ETH on base): nobody holds its key.",
  },
  {
    label: "receive-only-on-base",
    address: devnetAccounts.receiveOnlyOnBase.address,
    chain: "base",
    expected: { check: "caution", deep: "caution" },
    description: "Has received ETH and USDC on base but never sent a transaction (nonce 0).",
  },
];
