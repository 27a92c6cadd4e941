import { chains } from "@presend/shared/chains/chains";
import { encodeFunctionData, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifacts } from "./contracts/artifacts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { devnetPrivateKey } from "./devnetPrivateKey";
import { installStablecoin } from "./installStablecoin";
import { type AnvilInstance, startAnvil } from "./startAnvil";

describe("devnetClient", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;
  const sender = privateKeyToAccount(devnetPrivateKey("test: devnet client sender"));

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: chains.polygon.id });
    client = devnetClient("polygon", anvil.rpcUrl);
    await client.setBalance({ address: sender.address, value: parseEther("1") });
  });
  afterAll(() => anvil?.stop());

  it("talks to the local chain and confirms a mined transaction", async () => {
    expect(await client.getChainId()).toBe(137);
    const receipt = await client.confirm(
      client.sendTransaction({ account: sender, to: sender.address, value: 1n }),
    );
    expect(receipt.status).toBe("success");
  });

  it("throws when a mined transaction reverted", async () => {
    const token = chains.polygon.usdc.address;
    await installStablecoin(client, {
      address: token,
      name: "USD Coin",
      symbol: "USDC",
      version: "2",
      decimals: 6,
      minter: sender,
    });
    // A fixed gas limit skips estimation, so the revert happens on chain, in a mined block.
    const hash = client.sendTransaction({
      account: sender,
      to: token,
      gas: 100_000n,
      data: encodeFunctionData({
        abi: artifacts.PresendStablecoin.abi,
        functionName: "transfer",
        args: [sender.address, 1n],
      }),
    });
    await expect(client.confirm(hash)).rejects.toThrow(/reverted/);
  });
});
