import {
  type Address,
  concat,
  encodePacked,
  getContractAddress,
  type Hex,
  keccak256,
  pad,
} from "viem";
import { optimism } from "viem/chains";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { create2Deployer, safeInitializer } from "./demoWorld";
import { devnetAccounts } from "./devnetAccounts";

/** The salt the EntryPoint v0.7 was deployed with on every chain: it lands at 0x0000…a032. */
export const entryPointV07Salt: Hex =
  "0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3";

/** The salt the EntryPoint v0.6 was deployed with through Nick's factory: it lands at 0x5FF1…2789. */
export const entryPointV06Salt: Hex =
  "0x0000000000000000000000000000000000000000000000000000000000000000";

/** The salt Uniswap deployed Permit2 with through Nick's factory: it lands at 0x0000…8BA3. */
export const permit2Salt: Hex =
  "0x0000000000000000000000000000000000000000d3af2663da51c10215000000";

const { recipientsDeployer, recipientsEthereumDeployer } = devnetAccounts;
const deployed = (nonce: bigint) => getContractAddress({ from: recipientsDeployer.address, nonce });
const deployedOnEthereum = (nonce: bigint) =>
  getContractAddress({ from: recipientsEthereumDeployer.address, nonce });

const spamTokenA = deployed(4n);
const spamTokenB = deployed(6n);
const uniswapV2Factory = deployed(11n);
// UniswapV2Factory.createPair: CREATE2 with the sorted token pair as salt.
const [token0, token1] =
  spamTokenA.toLowerCase() < spamTokenB.toLowerCase()
    ? [spamTokenA, spamTokenB]
    : [spamTokenB, spamTokenA];

/** The Safe 1.3.0 L2's owners (2, threshold 1). */
export const safe130Safe = {
  owners: [devnetAccounts.safe130Owner.address, devnetAccounts.modularAccountOwner.address],
  threshold: 1n,
} as const;
const safe130Singleton = deployed(17n);
const safe130Factory = deployed(18n);
/** Safe 1.3.0's factory: CREATE2 of its proxy code and the singleton, salted by the initializer. */
const safe130Address = getContractAddress({
  opcode: "CREATE2",
  from: safe130Factory,
  salt: keccak256(
    encodePacked(
      ["bytes32", "uint256"],
      [keccak256(safeInitializer(safe130Safe.owners, safe130Safe.threshold)), 0n],
    ),
  ),
  bytecode: concat([publishedArtifacts.GnosisSafeProxy.bytecode, pad(safe130Singleton)]),
});

/**
 * The recipients people really hit, beyond the demo table, as the seeding builds them with real
 * transactions (seedRecipientKinds.ts): contracts written here where none is published, and
 * Optimism's published L1StandardBridge at its canonical address on ethereum.
 * @example recipientKinds.depositForwarderOnEthereum // an exchange-style deposit address
 */
export const recipientKinds = {
  /** The real ERC-4337 EntryPoint v0.7 (npm @account-abstraction/contracts 0.7.0), canonical address. */
  entryPointV07OnBase: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: entryPointV07Salt,
    bytecode: publishedArtifacts.EntryPointV07.bytecode,
  }),
  /** The real ERC-4337 EntryPoint v0.6 (npm @account-abstraction/contracts 0.6.0), canonical address. */
  entryPointV06OnBase: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: entryPointV06Salt,
    bytecode: publishedArtifacts.EntryPointV06.bytecode,
  }),
  /** The Coinbase-Smart-Wallet-like implementation (UUPS), and two ERC-1967 proxy accounts on it. */
  coinbaseWalletImplementationOnBase: deployed(21n),
  /** Two owners; used by one UserOperation through EntryPoint v0.6. */
  usedCoinbaseWalletOnBase: deployed(22n),
  /** The same account, deployed and funded, never used. */
  freshCoinbaseWalletOnBase: deployed(23n),
  /** Uniswap's Permit2 from its published sources, through Nick's factory: its canonical address. */
  permit2OnBase: getContractAddress({
    opcode: "CREATE2",
    from: create2Deployer,
    salt: permit2Salt,
    bytecode: publishedArtifacts.Permit2.bytecode,
  }),
  /** Keeps native deposits only from EOAs (msg.sender == tx.origin, no code at msg.sender). */
  eoaOnlyVaultOnBase: deployed(0n),
  /** Keeps native deposits only when tx.origin is originGateCustomer. */
  originGateOnBase: deployed(1n),
  /** ERC-7579 account (Kernel's interface) used by one UserOperation through EntryPoint v0.7. */
  usedModularAccountOnBase: deployed(2n),
  /** The same account code, deployed and funded, never used. */
  freshModularAccountOnBase: deployed(3n),
  /** Two OpenZeppelin ERC-20s sent to spamTokensOnlyOnBase (presend reads neither). */
  spamTokenAOnBase: spamTokenA,
  spamTokenBOnBase: spamTokenB,
  /** OpenZeppelin ERC-1155 collection (DemoMultiToken). */
  multiTokenOnBase: deployed(8n),
  /** DemoUpgradeableToken implementation, and the OpenZeppelin ERC-1967 proxy users hold. */
  upgradeableTokenImplementationOnBase: deployed(9n),
  upgradeableTokenOnBase: deployed(10n),
  /** The published UniswapV2Factory, and the pair of the two spam tokens it created, with liquidity. */
  uniswapV2FactoryOnBase: uniswapV2Factory,
  uniswapV2PairOnBase: getContractAddress({
    opcode: "CREATE2",
    from: uniswapV2Factory,
    salt: keccak256(encodePacked(["address", "address"], [token0, token1])),
    bytecode: publishedArtifacts.UniswapV2Pair.bytecode,
  }),
  /** Safe 1.3.0 L2 (npm @gnosis.pm/safe-contracts): singleton, proxy factory, and a Safe that executed one transaction. */
  safe130L2SingletonOnBase: safe130Singleton,
  safe130FactoryOnBase: safe130Factory,
  safe130L2OnBase: safe130Address,
  /** MetaMask's EIP7702StatelessDeleGator as deployed here, and at MetaMask's own address. */
  metaMaskDelegatorDeploymentOnBase: deployed(20n),
  metaMaskDelegatorOnBase: "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B" as Address,
  /** The published WETH9 at Base's WETH predeploy address, holding a real deposit. */
  wethOnBase: "0x4200000000000000000000000000000000000006" as Address,
  /** Forwards every native deposit to exchangeCollector; it forwarded a real one. */
  depositForwarderOnEthereum: deployedOnEthereum(0n),
  /** What the bridge sends deposits through (messenger, system and superchain config). */
  opStackMessengerOnEthereum: deployedOnEthereum(1n),
  /** The published L1StandardBridge implementation behind the canonical proxy. */
  l1StandardBridgeImplementationOnEthereum: deployedOnEthereum(2n),
  /** OP Mainnet's L1StandardBridge proxy, at its canonical address (viem's chain data). */
  l1StandardBridgeOnEthereum: optimism.contracts.l1StandardBridge[1].address as Address,
};
