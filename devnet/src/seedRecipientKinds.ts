import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Abi,
  type Address,
  concat,
  encodeAbiParameters,
  encodeFunctionData,
  type Hex,
  isAddressEqual,
  numberToHex,
  pad,
  parseEther,
  parseGwei,
  zeroAddress,
} from "viem";
import { toPackedUserOperation } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { artifacts } from "./contracts/artifacts";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { create2Deployer, safeInitializer } from "./demoWorld";
import { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";
import {
  entryPointV06Salt,
  entryPointV07Salt,
  permit2Salt,
  recipientKinds,
  safe130Safe,
} from "./recipientKinds";

const signer = (account: DevnetAccount) => privateKeyToAccount(account.privateKey);
const faucet = signer(devnetAccounts.faucet);
const { recipientsFunder: funder } = devnetAccounts;
const baseDeployer = signer(devnetAccounts.recipientsDeployer);
const ethereumDeployer = signer(devnetAccounts.recipientsEthereumDeployer);

// EIP-1967 admin slot: keccak256("eip1967.proxy.admin") - 1, where Optimism's Proxy keeps its admin.
const proxyAdminSlot = "0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103";

async function send(client: DevnetClient, from: DevnetAccount, to: Address, ether: string) {
  await client.confirm(
    client.sendTransaction({ account: signer(from), to, value: parseEther(ether) }),
  );
}

async function deploy(
  client: DevnetClient,
  artifact: { abi: Abi; bytecode: Hex },
  expected: Address,
  args: unknown[] = [],
) {
  const deployer = client.chain.id === 1 ? ethereumDeployer : baseDeployer;
  const receipt = await client.confirm(
    client.deployContract({ account: deployer, ...artifact, args: args as never }),
  );
  // recipientKinds documents the address from the deployer's nonce; a drift would mislead tests.
  if (!receipt.contractAddress || !isAddressEqual(receipt.contractAddress, expected)) {
    throw new UpstreamError(`deployed at ${receipt.contractAddress}, expected ${expected}`);
  }
}

/** The real EntryPoint v0.7 from its published bytecode, via Nick's factory, at 0x0000…a032. */
async function deployEntryPointV07(client: DevnetClient) {
  await client.confirm(
    client.sendTransaction({
      account: signer(funder),
      to: create2Deployer,
      data: concat([entryPointV07Salt, publishedArtifacts.EntryPointV07.bytecode]),
      gas: 8_000_000n,
    }),
  );
  const code = await client.getCode({ address: recipientKinds.entryPointV07OnBase });
  if (!code || code === "0x") throw new UpstreamError("EntryPoint v0.7 did not deploy");
}

/** The real EntryPoint v0.6 from its published bytecode, via Nick's factory, at 0x5FF1…2789. */
async function deployEntryPointV06(client: DevnetClient) {
  await client.confirm(
    client.sendTransaction({
      account: signer(funder),
      to: create2Deployer,
      data: concat([entryPointV06Salt, publishedArtifacts.EntryPointV06.bytecode]),
      gas: 8_000_000n,
    }),
  );
  const code = await client.getCode({ address: recipientKinds.entryPointV06OnBase });
  if (!code || code === "0x") throw new UpstreamError("EntryPoint v0.6 did not deploy");
}

/**
 * Two Coinbase-Smart-Wallet-like accounts (DemoCoinbaseSmartWallet behind an ERC-1967 proxy,
 * initialized with two owners in the deploying transaction), funded; the first sends 0.001 ETH to
 * the faucet by one UserOperation through the EntryPoint v0.6, signed by its first owner.
 */
async function seedCoinbaseWallets(client: DevnetClient) {
  await deployEntryPointV06(client);
  const implementation = recipientKinds.coinbaseWalletImplementationOnBase;
  await deploy(client, artifacts.DemoCoinbaseSmartWallet, implementation);
  const owner = signer(devnetAccounts.coinbaseWalletOwner);
  const initialize = encodeFunctionData({
    abi: artifacts.DemoCoinbaseSmartWallet.abi,
    functionName: "initialize",
    // Owners as Coinbase Smart Wallet keeps them: abi.encode(address), 32 bytes each.
    args: [[pad(owner.address), pad(devnetAccounts.coinbaseWalletBackupOwner.address)]],
  });
  for (const account of [
    recipientKinds.usedCoinbaseWalletOnBase,
    recipientKinds.freshCoinbaseWalletOnBase,
  ]) {
    await deploy(client, artifacts.DemoProxy, account, [implementation, initialize]);
    await send(client, funder, account, "0.2");
  }
  await send(client, funder, owner.address, "0.5");
  const entryPoint = recipientKinds.entryPointV06OnBase;
  const userOperation = {
    sender: recipientKinds.usedCoinbaseWalletOnBase,
    nonce: 0n,
    initCode: "0x",
    callData: encodeFunctionData({
      abi: artifacts.DemoCoinbaseSmartWallet.abi,
      functionName: "execute",
      args: [faucet.address, parseEther("0.001"), "0x"],
    }),
    callGasLimit: 200_000n,
    verificationGasLimit: 300_000n,
    preVerificationGas: 100_000n,
    maxFeePerGas: parseGwei("10"),
    maxPriorityFeePerGas: parseGwei("1"),
    paymasterAndData: "0x",
    signature: "0x",
  } as const;
  const userOpHash = (await client.readContract({
    address: entryPoint,
    abi: publishedArtifacts.EntryPointV06.abi,
    functionName: "getUserOpHash",
    args: [userOperation],
  })) as Hex;
  // Coinbase Smart Wallet's signature wrapper: which owner signed, and its signature.
  const signature = encodeAbiParameters(
    [
      {
        type: "tuple",
        components: [
          { name: "ownerIndex", type: "uint256" },
          { name: "signatureData", type: "bytes" },
        ],
      },
    ],
    [{ ownerIndex: 0n, signatureData: await owner.sign({ hash: userOpHash }) }],
  );
  // The owner bundles its own operation: the demo bundler's nonces belong to the demo seeding.
  await client.confirm(
    client.writeContract({
      account: owner,
      address: entryPoint,
      abi: publishedArtifacts.EntryPointV06.abi,
      functionName: "handleOps",
      args: [[{ ...userOperation, signature }], owner.address],
      gas: 2_000_000n,
    }),
  );
}

/** Permit2 as Uniswap deployed it: the same creation code and salt through Nick's factory. */
async function deployPermit2(client: DevnetClient) {
  await client.confirm(
    client.sendTransaction({
      account: signer(funder),
      to: create2Deployer,
      data: concat([permit2Salt, publishedArtifacts.Permit2.bytecode]),
      gas: 8_000_000n,
    }),
  );
  const code = await client.getCode({ address: recipientKinds.permit2OnBase });
  if (!code || code === "0x") throw new UpstreamError("Permit2 did not deploy");
}

/** One UserOperation through the EntryPoint v0.7: the account sends 0.001 ETH to the faucet. */
async function useModularAccount(client: DevnetClient, account: Address) {
  const owner = signer(devnetAccounts.modularAccountOwner);
  const entryPoint = recipientKinds.entryPointV07OnBase;
  const userOperation = {
    sender: account,
    nonce: 0n,
    // ERC-7579 single-call mode (0): target, value and data packed.
    callData: encodeFunctionData({
      abi: artifacts.DemoModularAccount.abi,
      functionName: "execute",
      args: [
        pad("0x00", { size: 32 }),
        concat([faucet.address, numberToHex(parseEther("0.001"), { size: 32 })]),
      ],
    }),
    verificationGasLimit: 300_000n,
    callGasLimit: 200_000n,
    preVerificationGas: 100_000n,
    maxFeePerGas: parseGwei("10"),
    maxPriorityFeePerGas: parseGwei("1"),
    signature: "0x",
  } as const;
  const packed = toPackedUserOperation(userOperation);
  const userOpHash = (await client.readContract({
    address: entryPoint,
    abi: publishedArtifacts.EntryPointV07.abi,
    functionName: "getUserOpHash",
    args: [packed],
  })) as Hex;
  const signature = await owner.sign({ hash: userOpHash });
  // The owner bundles its own operation: the demo bundler's nonces belong to the demo seeding.
  const bundler = owner;
  await client.confirm(
    client.writeContract({
      account: bundler,
      address: entryPoint,
      abi: publishedArtifacts.EntryPointV07.abi,
      functionName: "handleOps",
      args: [[{ ...packed, signature }], bundler.address],
      gas: 2_000_000n,
    }),
  );
}

/**
 * On base, beside the demo world (its own funder and keys): the EntryPoint v0.7, Permit2, an onlyEOA
 * vault, a tx.origin gate, an ERC-7579 account used through the EntryPoint v0.7 and a fresh one,
 * an EOA holding only two ERC-20s presend does not read, an ERC-1155 collection, an upgradeable
 * ERC-20 behind an ERC-1967 proxy, a Uniswap V2 pair, WETH9, a used Safe 1.3.0 L2, an EOA on
 * MetaMask's 7702 delegator, the EntryPoint v0.6 and two Coinbase-Smart-Wallet-like accounts on it
 * (one used).
 * @example await seedRecipientKindsOnBase(baseClient);
 */
export async function seedRecipientKindsOnBase(client: DevnetClient): Promise<void> {
  const { modularAccountOwner, originGateCustomer, spamTokensOnlyOnBase } = devnetAccounts;
  await client.setBalance({ address: funder.address, value: parseEther("100") });
  await send(client, funder, baseDeployer.address, "2");
  await send(client, funder, modularAccountOwner.address, "0.5");
  await deployEntryPointV07(client);
  await deployPermit2(client);
  await deploy(client, artifacts.DemoEoaOnlyVault, recipientKinds.eoaOnlyVaultOnBase);
  await deploy(client, artifacts.DemoOriginGate, recipientKinds.originGateOnBase, [
    originGateCustomer.address,
  ]);
  for (const account of [
    recipientKinds.usedModularAccountOnBase,
    recipientKinds.freshModularAccountOnBase,
  ]) {
    await deploy(client, artifacts.DemoModularAccount, account, [
      recipientKinds.entryPointV07OnBase,
      modularAccountOwner.address,
    ]);
    await send(client, funder, account, "0.2");
  }
  await useModularAccount(client, recipientKinds.usedModularAccountOnBase);
  const transfer = (token: Address, to: Address, amount: bigint) =>
    client.confirm(
      client.writeContract({
        account: baseDeployer,
        address: token,
        abi: artifacts.DemoToken.abi,
        functionName: "transfer",
        args: [to, amount],
      }),
    );
  for (const token of [recipientKinds.spamTokenAOnBase, recipientKinds.spamTokenBOnBase]) {
    await deploy(client, artifacts.DemoToken, token);
    await transfer(token, spamTokensOnlyOnBase.address, parseEther("1000"));
  }
  await deploy(client, artifacts.DemoMultiToken, recipientKinds.multiTokenOnBase);
  await deploy(
    client,
    artifacts.DemoUpgradeableToken,
    recipientKinds.upgradeableTokenImplementationOnBase,
  );
  await deploy(client, artifacts.DemoProxy, recipientKinds.upgradeableTokenOnBase, [
    recipientKinds.upgradeableTokenImplementationOnBase,
    encodeFunctionData({
      abi: artifacts.DemoUpgradeableToken.abi,
      functionName: "initialize",
      args: [baseDeployer.address, parseEther("1000000")],
    }),
  ]);
  await seedUniswapV2Pair(client, transfer);
  await seedWeth(client);
  await seedSafe130L2(client);
  await seedMetaMaskDelegated(client);
  await seedCoinbaseWallets(client);
}

/**
 * MetaMask's published EIP7702StatelessDeleGator, deployed by a real transaction, its runtime code
 * then installed at MetaMask's own address (where every chain has it; anvil_setCode, as the
 * stablecoins are installed); an EOA delegates to it (EIP-7702) and sends a transfer.
 */
async function seedMetaMaskDelegated(client: DevnetClient) {
  const deployment = recipientKinds.metaMaskDelegatorDeploymentOnBase;
  await deploy(client, publishedArtifacts.EIP7702StatelessDeleGator, deployment, [
    recipientKinds.entryPointV07OnBase,
    recipientKinds.entryPointV07OnBase,
  ]);
  const code = await client.getCode({ address: deployment });
  if (!code || code === "0x") throw new UpstreamError("the MetaMask delegator did not deploy");
  await client.setCode({ address: recipientKinds.metaMaskDelegatorOnBase, bytecode: code });
  const account = devnetAccounts.metaMaskDelegatedOnBase;
  const eoa = signer(account);
  await send(client, funder, eoa.address, "1");
  const authorization = await client.signAuthorization({
    account: eoa,
    contractAddress: recipientKinds.metaMaskDelegatorOnBase,
    executor: "self",
  });
  await client.confirm(
    client.sendTransaction({ account: eoa, authorizationList: [authorization], to: eoa.address }),
  );
  // The authorization took a nonce of its own, and anvil drops a mined transaction from its pool
  // a moment after its receipt is out: until then its "pending" count for this account is one
  // short, and a send on viem's pending nonce was refused "nonce too low" now and then (measured:
  // 18 of 300 such accounts on a loaded machine), failing the whole world's start. The latest
  // block's count is right once the receipt is in.
  const nonce = await client.getTransactionCount({ address: eoa.address, blockTag: "latest" });
  await client.confirm(
    client.sendTransaction({ account: eoa, to: faucet.address, value: parseEther("0.1"), nonce }),
  );
}

/** A Safe 1.3.0 L2 from the published singleton and factory; owner A executes one transfer. */
async function seedSafe130L2(client: DevnetClient) {
  const safe = recipientKinds.safe130L2OnBase;
  await deploy(client, publishedArtifacts.GnosisSafeL2, recipientKinds.safe130L2SingletonOnBase);
  await deploy(
    client,
    publishedArtifacts.GnosisSafeProxyFactory,
    recipientKinds.safe130FactoryOnBase,
  );
  await client.confirm(
    client.writeContract({
      account: baseDeployer,
      address: recipientKinds.safe130FactoryOnBase,
      abi: publishedArtifacts.GnosisSafeProxyFactory.abi,
      functionName: "createProxyWithNonce",
      args: [
        recipientKinds.safe130L2SingletonOnBase,
        safeInitializer(safe130Safe.owners, safe130Safe.threshold),
        0n,
      ],
    }),
  );
  await send(client, funder, safe, "0.5");
  const owner = signer(devnetAccounts.safe130Owner);
  await send(client, funder, owner.address, "0.1");
  // Signature type 1: "approved hash" by msg.sender, who must be an owner: r = owner, s = 0, v = 1.
  const signature = concat([pad(owner.address), pad("0x00"), "0x01"]);
  await client.confirm(
    client.writeContract({
      account: owner,
      address: safe,
      abi: publishedArtifacts.GnosisSafeL2.abi,
      functionName: "execTransaction",
      args: [
        faucet.address,
        parseEther("0.01"),
        "0x",
        0,
        0n,
        0n,
        0n,
        zeroAddress,
        zeroAddress,
        signature,
      ],
    }),
  );
}

/** The published UniswapV2Factory creates the spam tokens' pair, which mints on real liquidity. */
async function seedUniswapV2Pair(
  client: DevnetClient,
  transfer: (token: Address, to: Address, amount: bigint) => Promise<unknown>,
) {
  const factory = recipientKinds.uniswapV2FactoryOnBase;
  const pair = recipientKinds.uniswapV2PairOnBase;
  await deploy(client, publishedArtifacts.UniswapV2Factory, factory, [baseDeployer.address]);
  await client.confirm(
    client.writeContract({
      account: baseDeployer,
      address: factory,
      abi: publishedArtifacts.UniswapV2Factory.abi,
      functionName: "createPair",
      args: [recipientKinds.spamTokenAOnBase, recipientKinds.spamTokenBOnBase],
    }),
  );
  await transfer(recipientKinds.spamTokenAOnBase, pair, parseEther("100"));
  await transfer(recipientKinds.spamTokenBOnBase, pair, parseEther("100"));
  await client.confirm(
    client.writeContract({
      account: baseDeployer,
      address: pair,
      abi: publishedArtifacts.UniswapV2Pair.abi,
      functionName: "mint",
      args: [baseDeployer.address],
    }),
  );
}

/**
 * WETH9 as published, at Base's WETH predeploy address: predeploys exist from genesis, so its
 * runtime code is installed (anvil_setCode; WETH9 has no constructor state), then a real deposit.
 */
async function seedWeth(client: DevnetClient) {
  const weth = recipientKinds.wethOnBase;
  await client.setCode({ address: weth, bytecode: publishedArtifacts.WETH9.deployedBytecode });
  await client.confirm(
    client.writeContract({
      account: baseDeployer,
      address: weth,
      abi: publishedArtifacts.WETH9.abi,
      functionName: "deposit",
      value: parseEther("0.5"),
    }),
  );
}

/**
 * On ethereum: an exchange-style deposit forwarder that forwarded a real deposit, and OP
 * Mainnet's L1StandardBridge at its canonical address: Optimism's published Proxy code installed
 * there (anvil_setCode, admin in its EIP-1967 slot, as the stablecoins are installed), upgraded by
 * a real transaction to the published L1StandardBridge, which then bridged a real deposit.
 * @example await seedRecipientKindsOnEthereum(ethereumClient);
 */
export async function seedRecipientKindsOnEthereum(client: DevnetClient): Promise<void> {
  await client.setBalance({ address: funder.address, value: parseEther("100") });
  await send(client, funder, ethereumDeployer.address, "2");
  await deploy(client, artifacts.DemoDepositForwarder, recipientKinds.depositForwarderOnEthereum, [
    devnetAccounts.exchangeCollector.address,
  ]);
  await send(client, funder, recipientKinds.depositForwarderOnEthereum, "0.05");

  const messenger = recipientKinds.opStackMessengerOnEthereum;
  await deploy(client, artifacts.DemoOpStackMessenger, messenger);
  await deploy(
    client,
    publishedArtifacts.L1StandardBridge,
    recipientKinds.l1StandardBridgeImplementationOnEthereum,
  );
  const bridge = recipientKinds.l1StandardBridgeOnEthereum;
  await client.setCode({
    address: bridge,
    bytecode: publishedArtifacts.OptimismProxy.deployedBytecode,
  });
  await client.setStorageAt({
    address: bridge,
    index: proxyAdminSlot,
    value: pad(ethereumDeployer.address, { size: 32 }),
  });
  await client.confirm(
    client.writeContract({
      account: ethereumDeployer,
      address: bridge,
      abi: publishedArtifacts.OptimismProxy.abi,
      functionName: "upgradeToAndCall",
      args: [
        recipientKinds.l1StandardBridgeImplementationOnEthereum,
        encodeFunctionData({
          abi: publishedArtifacts.L1StandardBridge.abi,
          functionName: "initialize",
          args: [messenger, messenger, messenger],
        }),
      ],
    }),
  );
  // A plain ETH send from a wallet: the bridge passes it to the messenger for the sender's L2.
  await send(client, funder, bridge, "0.01");
}
