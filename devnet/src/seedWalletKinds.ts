import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Address,
  encodeFunctionData,
  isAddressEqual,
  parseEther,
  zeroAddress,
  zeroHash,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { artifacts } from "./contracts/artifacts";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { createAndUseSimpleAccount } from "./createAndUseSimpleAccount";
import {
  create2Deployer,
  demoAccounts,
  demoContracts,
  demoSafes,
  entryPointV08Salt,
  safeInitializer,
} from "./demoWorld";
import { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";

const signer = (account: DevnetAccount) => privateKeyToAccount(account.privateKey);
const faucet = signer(devnetAccounts.faucet);

async function fund(client: DevnetClient, to: Address, ether: string) {
  await client.confirm(client.sendTransaction({ account: faucet, to, value: parseEther(ether) }));
}

async function deploy(
  client: DevnetClient,
  from: DevnetAccount,
  artifact: { abi: readonly unknown[]; bytecode: `0x${string}` },
  expected: Address,
  args: unknown[] = [],
) {
  const receipt = await client.confirm(
    client.deployContract({
      account: signer(from),
      abi: artifact.abi as never,
      bytecode: artifact.bytecode,
      args: args as never,
    }),
  );
  // demoWorld documents the address from the deployer's nonce; a drift would mislead the README.
  if (!receipt.contractAddress || !isAddressEqual(receipt.contractAddress, expected)) {
    throw new UpstreamError(
      `deployed at ${receipt.contractAddress}, demo world expects ${expected}`,
    );
  }
}

/** Deploys a Safe proxy through the published factory and checks it landed where documented. */
async function createSafe(
  client: DevnetClient,
  options: {
    from: DevnetAccount;
    factory: Address;
    singleton: Address;
    safe: { owners: readonly Address[]; threshold: bigint };
    saltNonce: bigint;
    expected: Address;
  },
) {
  await client.confirm(
    client.writeContract({
      account: signer(options.from),
      address: options.factory,
      abi: publishedArtifacts.SafeProxyFactory.abi,
      functionName: "createProxyWithNonce",
      args: [
        options.singleton,
        safeInitializer(options.safe.owners, options.safe.threshold),
        options.saltNonce,
      ],
    }),
  );
  const code = await client.getCode({ address: options.expected });
  if (!code || code === "0x") throw new UpstreamError(`no Safe at ${options.expected}`);
}

/** Owner A executes one ETH transfer from the Safe (threshold 1, signature approved by sender). */
async function executeSafeTransaction(client: DevnetClient, safe: Address) {
  const owner = signer(devnetAccounts.multisigOwnerA);
  // Signature type 1: "approved hash" by msg.sender, who must be an owner: r = owner, s = 0, v = 1.
  const signature =
    `0x${owner.address.slice(2).toLowerCase().padStart(64, "0")}${"0".repeat(64)}01` as const;
  await client.confirm(
    client.writeContract({
      account: owner,
      address: safe,
      abi: publishedArtifacts.Safe.abi,
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

/** The real EntryPoint v0.8 from its published bytecode, via Nick's factory, at 0x4337…f108. */
async function deployEntryPoint(client: DevnetClient) {
  await client.confirm(
    client.sendTransaction({
      account: faucet,
      to: create2Deployer,
      data: `${entryPointV08Salt}${publishedArtifacts.EntryPoint.bytecode.slice(2)}`,
      gas: 8_000_000n,
    }),
  );
  const code = await client.getCode({ address: demoContracts.entryPointV08 });
  if (!code || code === "0x") throw new UpstreamError("EntryPoint v0.8 did not deploy");
}

/**
 * The Safe 1.3.0 L2 singleton and proxy factory from their published bytecode, via Nick's factory
 * with salt 0, as Safe deployed them on every chain: at their canonical addresses.
 */
async function deployCanonicalSafe(client: DevnetClient): Promise<void> {
  const contracts = [
    [publishedArtifacts.GnosisSafeL2, demoContracts.canonicalSafeL2Singleton],
    [publishedArtifacts.GnosisSafeProxyFactory, demoContracts.canonicalSafeFactory],
  ] as const;
  for (const [artifact, expected] of contracts) {
    await client.confirm(
      client.sendTransaction({
        account: faucet,
        to: create2Deployer,
        data: `${zeroHash}${artifact.bytecode.slice(2)}`,
        gas: 8_000_000n,
      }),
    );
    const code = await client.getCode({ address: expected });
    if (!code || code === "0x")
      throw new UpstreamError(`no canonical Safe contract at ${expected}`);
  }
}

/** An EOA with history signs an EIP-7702 authorization for `delegate` and runs a self-call. */
async function delegate(
  client: DevnetClient,
  account: DevnetAccount,
  target: Address,
  data: `0x${string}`,
) {
  const eoa = signer(account);
  const authorization = await client.signAuthorization({
    account: eoa,
    contractAddress: target,
    executor: "self",
  });
  await client.confirm(
    client.sendTransaction({
      account: eoa,
      authorizationList: [authorization],
      to: eoa.address,
      data,
    }),
  );
}

/**
 * The wallet kinds people really send to, on base, from published artifacts: Safes (used and
 * unused), an ERC-4337 account used through the real EntryPoint, EIP-7702 accounts on a known
 * wallet delegate and on a sweeper, an ERC-20 and an ERC-721. Runs after the base deployer
 * deployed its first two contracts (nonces 0 and 1).
 * @example await seedWalletKindsOnBase(baseClient);
 */
export async function seedWalletKindsOnBase(client: DevnetClient): Promise<void> {
  const { baseDeployer, delegatedOnBase, sweptOnBase, sweeperThief, multisigOwnerA } =
    devnetAccounts;
  await deploy(client, baseDeployer, publishedArtifacts.Safe, demoContracts.safeSingletonOnBase);
  await deploy(
    client,
    baseDeployer,
    publishedArtifacts.SafeProxyFactory,
    demoContracts.safeFactoryOnBase,
  );
  await deploy(
    client,
    baseDeployer,
    publishedArtifacts.Simple7702Account,
    demoContracts.simple7702OnBase,
  );
  await deploy(client, baseDeployer, artifacts.DemoSweeper, demoContracts.sweeperOnBase, [
    sweeperThief.address,
  ]);
  await deploy(client, baseDeployer, artifacts.DemoToken, demoContracts.tokenOnBase);
  await deploy(client, baseDeployer, artifacts.DemoCollection, demoContracts.collectionOnBase);
  await deployEntryPoint(client);
  await deployCanonicalSafe(client);
  await deploy(
    client,
    baseDeployer,
    publishedArtifacts.SimpleAccountFactory,
    demoContracts.simpleAccountFactoryOnBase,
    [demoContracts.entryPointV08],
  );

  const safeOnBase = {
    from: baseDeployer,
    factory: demoContracts.safeFactoryOnBase,
    singleton: demoContracts.safeSingletonOnBase,
    safe: demoSafes.base,
  };
  await createSafe(client, { ...safeOnBase, saltNonce: 1n, expected: demoAccounts.usedSafeOnBase });
  await createSafe(client, {
    ...safeOnBase,
    saltNonce: 2n,
    expected: demoAccounts.unusedSafeOnBase,
  });
  await fund(client, demoAccounts.usedSafeOnBase, "2");
  await fund(client, demoAccounts.unusedSafeOnBase, "1");
  await fund(client, multisigOwnerA.address, "1");
  await executeSafeTransaction(client, demoAccounts.usedSafeOnBase);

  const smartAccount = await createAndUseSimpleAccount(client, {
    factory: demoContracts.simpleAccountFactoryOnBase,
    owner: signer(devnetAccounts.smartAccountOwner),
    bundler: signer(devnetAccounts.bundler),
  });
  if (!isAddressEqual(smartAccount, demoAccounts.smartAccountOnBase)) {
    throw new UpstreamError(
      `SimpleAccount at ${smartAccount}, demo world expects ${demoAccounts.smartAccountOnBase}`,
    );
  }

  // A known wallet delegate: the account runs a transfer through Simple7702Account's execute.
  await fund(client, delegatedOnBase.address, "1");
  await delegate(
    client,
    delegatedOnBase,
    demoContracts.simple7702OnBase,
    encodeFunctionData({
      abi: publishedArtifacts.Simple7702Account.abi,
      functionName: "execute",
      args: [faucet.address, parseEther("0.01"), "0x"],
    }),
  );

  // A compromised account: it was used, then its key delegated to the sweeper.
  await fund(client, sweptOnBase.address, "1");
  await client.confirm(
    client.sendTransaction({
      account: signer(sweptOnBase),
      to: faucet.address,
      value: parseEther("0.1"),
    }),
  );
  await delegate(client, sweptOnBase, demoContracts.sweeperOnBase, "0x");
}

/**
 * Two Safes (3 owners, threshold 2) on ethereum only, funded: one from a Safe 1.4.1 singleton and
 * factory deployed here alone, one from the canonical Safe 1.3.0 L2 singleton and factory.
 * @example await seedSafeOnEthereum(ethereumClient);
 */
export async function seedSafeOnEthereum(client: DevnetClient): Promise<void> {
  const { ethereumDeployer } = devnetAccounts;
  await fund(client, ethereumDeployer.address, "1");
  await deploy(
    client,
    ethereumDeployer,
    publishedArtifacts.Safe,
    demoContracts.safeSingletonOnEthereum,
  );
  await deploy(
    client,
    ethereumDeployer,
    publishedArtifacts.SafeProxyFactory,
    demoContracts.safeFactoryOnEthereum,
  );
  await createSafe(client, {
    from: ethereumDeployer,
    factory: demoContracts.safeFactoryOnEthereum,
    singleton: demoContracts.safeSingletonOnEthereum,
    safe: demoSafes.ethereum,
    saltNonce: 0n,
    expected: demoAccounts.safeOnEthereum,
  });
  await fund(client, demoAccounts.safeOnEthereum, "3");
  await deployCanonicalSafe(client);
  await createSafe(client, {
    from: ethereumDeployer,
    factory: demoContracts.canonicalSafeFactory,
    singleton: demoContracts.canonicalSafeL2Singleton,
    safe: demoSafes.ethereum,
    saltNonce: 0n,
    expected: demoAccounts.canonicalSafeOnEthereum,
  });
  await fund(client, demoAccounts.canonicalSafeOnEthereum, "2");
}
