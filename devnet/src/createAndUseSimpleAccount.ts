import {
  type Address,
  encodeFunctionData,
  type Hex,
  type PrivateKeyAccount,
  parseEther,
  parseGwei,
} from "viem";
import { toPackedUserOperation } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { demoContracts } from "./demoWorld";
import { devnetAccounts } from "./devnetAccounts";
import type { DevnetClient } from "./devnetClient";

/**
 * Creates `owner`'s SimpleAccount and uses it, as ERC-4337 wallets do: one UserOperation through
 * the real EntryPoint v0.8 (at its canonical address) creates the account through `factory` (a
 * SimpleAccountFactory v0.8, as initCode) and sends 0.001 ETH from it to the faucet, signed by
 * the owner over the userOpHash and submitted by `bundler` (handleOps). The faucet funds the
 * account (0.5 ETH, for the prefund and the send) and the bundler (1 ETH, for the gas).
 * @returns the account's address (counterfactual: the factory's getAddress for the owner, salt 0)
 * @example const account = await createAndUseSimpleAccount(client, { factory, owner, bundler });
 */
export async function createAndUseSimpleAccount(
  client: DevnetClient,
  options: {
    factory: Address;
    owner: PrivateKeyAccount;
    bundler: PrivateKeyAccount;
    payTo?: Address;
  },
): Promise<Address> {
  const { factory, owner, bundler } = options;
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  const payTo = options.payTo ?? faucet.address;
  const entryPoint = demoContracts.entryPointV08;
  const sender = (await client.readContract({
    address: factory,
    abi: publishedArtifacts.SimpleAccountFactory.abi,
    functionName: "getAddress",
    args: [owner.address, 0n],
  })) as Address;
  for (const [to, ether] of [
    [sender, "0.5"],
    [bundler.address, "1"],
  ] as const) {
    await client.confirm(client.sendTransaction({ account: faucet, to, value: parseEther(ether) }));
  }
  const packed = toPackedUserOperation({
    sender,
    nonce: 0n,
    factory,
    factoryData: encodeFunctionData({
      abi: publishedArtifacts.SimpleAccountFactory.abi,
      functionName: "createAccount",
      args: [owner.address, 0n],
    }),
    callData: encodeFunctionData({
      abi: publishedArtifacts.SimpleAccount.abi,
      functionName: "execute",
      args: [payTo, parseEther("0.001"), "0x"],
    }),
    verificationGasLimit: 1_000_000n,
    callGasLimit: 200_000n,
    preVerificationGas: 100_000n,
    maxFeePerGas: parseGwei("10"),
    maxPriorityFeePerGas: parseGwei("1"),
    signature: "0x",
  });
  const userOpHash = (await client.readContract({
    address: entryPoint,
    abi: publishedArtifacts.EntryPoint.abi,
    functionName: "getUserOpHash",
    args: [packed],
  })) as Hex;
  const signature = await owner.sign({ hash: userOpHash });
  await client.confirm(
    client.writeContract({
      account: bundler,
      address: entryPoint,
      abi: publishedArtifacts.EntryPoint.abi,
      functionName: "handleOps",
      args: [[{ ...packed, signature }], bundler.address],
      gas: 3_000_000n,
    }),
  );
  return sender;
}
