import type { Level } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import {
  type Address,
  concat,
  encodeFunctionData,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
  zeroAddress,
  zeroHash,
} from "viem";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { devnetAccounts } from "./devnetAccounts";
import { senderDemoRows } from "./senderWorld";

export type DemoAddress = {
  label: string;
  address: Address;
  /** The chain the demo checks against (the `chain` of the request). */
  chain: ChainName;
  /** Expected verdict level of POST /check and POST /deep for this address on `chain`. */
  expected: { check: Level; deep: Level };
  /** The expected levels with `from` set to this sender, for the sender-history rows. */
  withFrom?: { from: Address; check: Level; deep: Level } | null;
  description: string;
};

const onBase = (nonce: bigint) =>
  getContractAddress({ from: devnetAccounts.baseDeployer.address, nonce });
const onEthereum = (nonce: bigint) =>
  getContractAddress({ from: devnetAccounts.ethereumDeployer.address, nonce });

/** Nick's deterministic deployment proxy (anvil has it); the real EntryPoint v0.8 comes from it. */
export const create2Deployer: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";
/** The salt the EntryPoint v0.8 was deployed with on every chain: it lands at 0x4337…f108. */
export const entryPointV08Salt: Hex =
  "0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9";

/** The initializer of a demo Safe: owners and threshold, no modules, no fallback handler. */
export function safeInitializer(owners: readonly Address[], threshold: bigint): Hex {
  return encodeFunctionData({
    abi: publishedArtifacts.Safe.abi,
    functionName: "setup",
    args: [owners, threshold, zeroAddress, "0x", zeroAddress, zeroAddress, 0n, zeroAddress],
  });
}

/**
 * Where SafeProxyFactory.createProxyWithNonce puts a Safe (CREATE2, as the factory computes it);
 * `proxyBytecode` is the proxy creation code of the factory's version (1.4.1's by default).
 */
export function safeAddress(options: {
  factory: Address;
  singleton: Address;
  initializer: Hex;
  saltNonce: bigint;
  proxyBytecode?: Hex;
}): Address {
  const salt = keccak256(
    encodePacked(["bytes32", "uint256"], [keccak256(options.initializer), options.saltNonce]),
  );
  const bytecode = concat([
    options.proxyBytecode ?? publishedArtifacts.SafeProxy.bytecode,
    pad(options.singleton, { size: 32 }),
  ]);
  return getContractAddress({ opcode: "CREATE2", from: options.factory, salt, bytecode });
}

const { multisigOwnerA, multisigOwnerB, multisigOwnerC } = devnetAccounts;
/** The demo Safes: 2 owners, threshold 1 on base; 3 owners, threshold 2 on ethereum. */
export const demoSafes = {
  base: {
    owners: [multisigOwnerA.address, multisigOwnerB.address],
    threshold: 1n,
  },
  ethereum: {
    owners: [multisigOwnerA.address, multisigOwnerB.address, multisigOwnerC.address],
    threshold: 2n,
  },
} as const;

/** Contracts the seeding deploys with real transactions; their addresses follow from deployer nonces. */
export const demoContracts = {
  /** DemoGuestbook on base (has no receive: it rejects native transfers): base deployer, nonce 0. */
  guestbookOnBase: onBase(0n),
  /** DemoBatchExecutor on base: base deployer, nonce 1. */
  batchExecutorOnBase: onBase(1n),
  /** Safe 1.4.1 singleton and proxy factory on base (npm @safe-global/safe-contracts). */
  safeSingletonOnBase: onBase(2n),
  safeFactoryOnBase: onBase(3n),
  /** Simple7702Account (npm @account-abstraction/contracts) at a new address: known by its code. */
  simple7702OnBase: onBase(4n),
  /** DemoSweeper: forwards every native deposit to the thief. */
  sweeperOnBase: onBase(5n),
  /** OpenZeppelin ERC-20 (DEMO) and ERC-721 (DEMONFT), compiled with solc. */
  tokenOnBase: onBase(6n),
  collectionOnBase: onBase(7n),
  /** SimpleAccountFactory v0.8 (it deploys the SimpleAccount implementation in its constructor). */
  simpleAccountFactoryOnBase: onBase(8n),
  /** The real ERC-4337 EntryPoint v0.8, at its canonical address. */
  entryPointV08: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: entryPointV08Salt,
    bytecode: publishedArtifacts.EntryPoint.bytecode,
  }),
  /**
   * Safe 1.4.1 singleton and proxy factory on ethereum, from the ethereum deployer's nonces: they
   * exist on ethereum only, so a Safe made from them cannot be made on any other chain.
   */
  safeSingletonOnEthereum: onEthereum(0n),
  safeFactoryOnEthereum: onEthereum(1n),
  /**
   * Safe 1.3.0 L2 singleton and proxy factory (npm @gnosis.pm/safe-contracts) through Nick's
   * factory with salt 0, as Safe deployed them: their canonical addresses, on base and ethereum.
   */
  canonicalSafeL2Singleton: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: zeroHash,
    bytecode: publishedArtifacts.GnosisSafeL2.bytecode,
  }),
  canonicalSafeFactory: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: zeroHash,
    bytecode: publishedArtifacts.GnosisSafeProxyFactory.bytecode,
  }),
};

/** The demo Safes and the smart account, at the addresses their factories give them. */
export const demoAccounts = {
  /** Safe on base that executed one transaction (Safe nonce 1). */
  usedSafeOnBase: safeAddress({
    factory: demoContracts.safeFactoryOnBase,
    singleton: demoContracts.safeSingletonOnBase,
    initializer: safeInitializer(demoSafes.base.owners, demoSafes.base.threshold),
    saltNonce: 1n,
  }),
  /** Safe on base, funded, never executed anything (Safe nonce 0; account nonce 1). */
  unusedSafeOnBase: safeAddress({
    factory: demoContracts.safeFactoryOnBase,
    singleton: demoContracts.safeSingletonOnBase,
    initializer: safeInitializer(demoSafes.base.owners, demoSafes.base.threshold),
    saltNonce: 2n,
  }),
  /** Safe on ethereum only, from a singleton and factory that exist on ethereum only. */
  safeOnEthereum: safeAddress({
    factory: demoContracts.safeFactoryOnEthereum,
    singleton: demoContracts.safeSingletonOnEthereum,
    initializer: safeInitializer(demoSafes.ethereum.owners, demoSafes.ethereum.threshold),
    saltNonce: 0n,
  }),
  /** Safe on ethereum only, from the canonical Safe 1.3.0 L2 singleton and factory. */
  canonicalSafeOnEthereum: safeAddress({
    factory: demoContracts.canonicalSafeFactory,
    singleton: demoContracts.canonicalSafeL2Singleton,
    initializer: safeInitializer(demoSafes.ethereum.owners, demoSafes.ethereum.threshold),
    saltNonce: 0n,
    proxyBytecode: publishedArtifacts.GnosisSafeProxy.bytecode,
  }),
  /**
   * SimpleAccount (ERC-1967 proxy) of smartAccountOwner, salt 0, deployed by its first
   * UserOperation; SimpleAccountFactory.getAddress gives it (the seeding checks).
   */
  smartAccountOnBase: "0xF3A6ea3b800Be03a72cf735Daa2bA7080a7a3D3C" as Address,
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
    label: "used-safe-on-base",
    address: demoAccounts.usedSafeOnBase,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    description:
      "Safe 1.4.1 proxy (2 owners, threshold 1) from the published singleton and factory; it executed one transaction (Safe nonce 1).",
  },
  {
    label: "unused-safe-on-base",
    address: demoAccounts.unusedSafeOnBase,
    chain: "base",
    expected: { check: "caution", deep: "caution" },
    description:
      "Safe 1.4.1 proxy, funded with ETH, never executed a transaction: deployed, never used (its account nonce is 1, like every contract).",
  },
  {
    label: "used-smart-account-on-base",
    address: demoAccounts.smartAccountOnBase,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    description:
      "ERC-4337 SimpleAccount (ERC-1967 proxy, npm @account-abstraction/contracts 0.8) created and used by one UserOperation through the real EntryPoint v0.8 (getNonce 1).",
  },
  {
    label: "eip7702-wallet-delegate-on-base",
    address: devnetAccounts.delegatedOnBase.address,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    description: `EOA with history that delegated to Simple7702Account (${demoContracts.simple7702OnBase}, the published code at a new address: known by its code hash) with an EIP-7702 transaction.`,
  },
  {
    label: "eip7702-sweeper-on-base",
    address: devnetAccounts.sweptOnBase.address,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    description: `EOA with history delegated to DemoSweeper (${demoContracts.sweeperOnBase}), which forwards every native deposit to a thief: the receive simulation sees the deposit leave.`,
  },
  {
    label: "erc20-token-on-base",
    address: demoContracts.tokenOnBase,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    description: "OpenZeppelin ERC-20 (DEMO): a token contract, not a wallet.",
  },
  {
    label: "nft-collection-on-base",
    address: demoContracts.collectionOnBase,
    chain: "base",
    expected: { check: "warn", deep: "warn" },
    description: "OpenZeppelin ERC-721 collection (DEMONFT): not a wallet.",
  },
  {
    label: "contract-rejecting-eth-on-base",
    address: demoContracts.guestbookOnBase,
    chain: "base",
    expected: { check: "warn", deep: "warn" },
    description:
      "DemoGuestbook, an application contract with no receive function: a native send to it would revert.",
  },
  {
    label: "safe-on-ethereum-only",
    address: demoAccounts.safeOnEthereum,
    chain: "base",
    expected: { check: "caution", deep: "danger" },
    description:
      "Safe 1.4.1 (3 owners, threshold 2) on ethereum only, made from a singleton and factory deployed on ethereum only. On base /check sees a fresh address; /deep sees the Safe on ethereum and no singleton for it on base: its owners cannot make it on base, so a send there is stranded.",
  },
  {
    label: "canonical-safe-on-ethereum-only",
    address: demoAccounts.canonicalSafeOnEthereum,
    chain: "base",
    expected: { check: "caution", deep: "warn" },
    description:
      "Safe 1.3.0 L2 (3 owners, threshold 2) on ethereum only, from the canonical singleton and factory, which base has too. On base /check sees a fresh address; /deep sees the Safe on ethereum: its owners may be able to create it on base too (if it was made to have the same address everywhere, which its state does not show), so create it there first.",
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
  ...senderDemoRows,
];
