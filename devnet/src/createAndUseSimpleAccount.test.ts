import { chains } from "@presend/shared/chains/chains";
import { type Address, concat, getAddress, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { createAndUseSimpleAccount } from "./createAndUseSimpleAccount";
import { create2Deployer, demoContracts, entryPointV08Salt } from "./demoWorld";
import { devnetAccounts } from "./devnetAccounts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { type AnvilInstance, startAnvil } from "./startAnvil";

const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);

describe("createAndUseSimpleAccount (real EntryPoint v0.8 and SimpleAccountFactory on anvil)", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;
  let factory: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: chains.base.id });
    client = devnetClient("base", anvil.rpcUrl);
    await client.setBalance({ address: faucet.address, value: parseEther("10") });
    await client.confirm(
      client.sendTransaction({
        account: faucet,
        to: create2Deployer,
        data: concat([entryPointV08Salt, publishedArtifacts.EntryPoint.bytecode]),
        gas: 8_000_000n,
      }),
    );
    const receipt = await client.confirm(
      client.deployContract({
        account: faucet,
        abi: publishedArtifacts.SimpleAccountFactory.abi,
        bytecode: publishedArtifacts.SimpleAccountFactory.bytecode,
        args: [demoContracts.entryPointV08],
      }),
    );
    factory = getAddress(receipt.contractAddress as Address);
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it("creates the owner's account through the factory, and uses it once", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const bundler = privateKeyToAccount(generatePrivateKey());

    const account = await createAndUseSimpleAccount(client, { factory, owner, bundler });

    // An account of the owner's, whose one UserOperation went through the EntryPoint.
    const owned = await client.readContract({
      address: account,
      abi: publishedArtifacts.SimpleAccount.abi,
      functionName: "owner",
    });
    expect(owned).toBe(owner.address);
    const userOperations = await client.readContract({
      address: demoContracts.entryPointV08,
      abi: publishedArtifacts.EntryPoint.abi,
      functionName: "getNonce",
      args: [account, 0n],
    });
    expect(userOperations).toBe(1n);
    // The bundler submitted it (its one transaction); the owner never sent one.
    expect(await client.getTransactionCount({ address: bundler.address })).toBe(1);
    expect(await client.getTransactionCount({ address: owner.address })).toBe(0);
  });
});
