import { chains } from "@presend/shared/chains/chains";
import { authorizationTypes as x402AuthorizationTypes } from "@x402/evm";
import {
  type Address,
  type Hex,
  hashDomain,
  type PrivateKeyAccount,
  parseSignature,
  parseUnits,
  toHex,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifacts } from "./contracts/artifacts";
import { devnetAccounts } from "./devnetAccounts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { devnetPrivateKey } from "./devnetPrivateKey";
import { installStablecoin } from "./installStablecoin";
import { mintStablecoin } from "./mintStablecoin";
import { prepareDevnetChain } from "./prepareDevnetChain";
import { type AnvilInstance, startAnvil } from "./startAnvil";

const abi = artifacts.PresendStablecoin.abi;
const usdcAddress = chains.base.usdc.address;
const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
const holder = privateKeyToAccount(devnetPrivateKey("test: eip-3009 holder"));
const stranger = privateKeyToAccount(devnetPrivateKey("test: eip-3009 stranger"));
const recipient = privateKeyToAccount(devnetPrivateKey("test: eip-3009 recipient")).address;

// x402's own TransferWithAuthorization types; receive and cancel take the same shapes.
const authorizationTypes = {
  ...x402AuthorizationTypes,
  ReceiveWithAuthorization: x402AuthorizationTypes.TransferWithAuthorization,
  CancelAuthorization: [
    { name: "authorizer", type: "address" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

let nonceCounter = 0;
const freshNonce = (): Hex => toHex(++nonceCounter + Date.now() * 1000, { size: 32 });

describe("installStablecoin (EIP-3009 USDC semantics on a real anvil chain)", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: chains.base.id });
    client = devnetClient("base", anvil.rpcUrl);
    await prepareDevnetChain(client, "base");
    await mintStablecoin(client, {
      token: usdcAddress,
      minter: faucet,
      to: holder.address,
      amount: parseUnits("100", 6),
    });
    for (const account of [holder, stranger]) {
      await client.setBalance({ address: account.address, value: 10n ** 18n });
    }
  });
  afterAll(() => anvil?.stop());

  const read = (functionName: string, args: unknown[] = [], address: Address = usdcAddress) =>
    client.readContract({ address, abi, functionName, args });

  async function signAuthorization(options: {
    signer: PrivateKeyAccount;
    primaryType?: "TransferWithAuthorization" | "ReceiveWithAuthorization";
    to?: Address;
    value?: bigint;
    validAfter?: bigint;
    validBefore?: bigint;
    token?: Address;
  }) {
    const block = await client.getBlock();
    const message = {
      from: holder.address,
      to: options.to ?? recipient,
      value: options.value ?? 10_000n,
      validAfter: options.validAfter ?? 0n,
      validBefore: options.validBefore ?? block.timestamp + 60n,
      nonce: freshNonce(),
    };
    const signature = await options.signer.signTypedData({
      domain: {
        name: "USD Coin",
        version: "2",
        chainId: chains.base.id,
        verifyingContract: options.token ?? usdcAddress,
      },
      types: authorizationTypes,
      primaryType: options.primaryType ?? "TransferWithAuthorization",
      message,
    });
    return { message, signature };
  }

  const vrsArgs = (
    message: Awaited<ReturnType<typeof signAuthorization>>["message"],
    signature: Hex,
  ) => {
    const { v, r, s } = parseSignature(signature);
    return [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      Number(v),
      r,
      s,
    ];
  };

  const submit = (
    functionName: string,
    args: unknown[],
    sender: PrivateKeyAccount = stranger,
    address = usdcAddress,
  ) => client.confirm(client.writeContract({ account: sender, address, abi, functionName, args }));

  it("has USDC's metadata and an EIP-712 domain bound to its address and chain", async () => {
    expect(await read("name")).toBe("USD Coin");
    expect(await read("symbol")).toBe("USDC");
    expect(await read("version")).toBe("2");
    expect(await read("decimals")).toBe(6);
    expect(await read("minter")).toBe(faucet.address);
    expect(await read("DOMAIN_SEPARATOR")).toBe(
      hashDomain({
        domain: {
          name: "USD Coin",
          version: "2",
          chainId: 8453n,
          verifyingContract: usdcAddress,
        },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "version", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      }),
    );
  });

  it("moves funds for a viem-signed transferWithAuthorization (v, r, s) submitted by a third party", async () => {
    const { message, signature } = await signAuthorization({ signer: holder });
    const before = (await read("balanceOf", [recipient])) as bigint;
    const receipt = await submit("transferWithAuthorization", vrsArgs(message, signature));
    expect((await read("balanceOf", [recipient])) as bigint).toBe(before + message.value);
    expect(await read("authorizationState", [holder.address, message.nonce])).toBe(true);
    // Transfer + AuthorizationUsed, as USDC emits them.
    expect(
      receipt.logs.filter((log) => log.address.toLowerCase() === usdcAddress.toLowerCase()),
    ).toHaveLength(2);
  });

  it("accepts the `bytes signature` overload the x402 facilitator uses for non-v/r/s signatures", async () => {
    const { message, signature } = await signAuthorization({ signer: holder });
    const before = (await read("balanceOf", [recipient])) as bigint;
    await submit("transferWithAuthorization", [
      message.from,
      message.to,
      message.value,
      message.validAfter,
      message.validBefore,
      message.nonce,
      signature,
    ]);
    expect((await read("balanceOf", [recipient])) as bigint).toBe(before + message.value);
  });

  it("rejects a replayed authorization", async () => {
    const { message, signature } = await signAuthorization({ signer: holder });
    await submit("transferWithAuthorization", vrsArgs(message, signature));
    await expect(submit("transferWithAuthorization", vrsArgs(message, signature))).rejects.toThrow(
      /authorization is used or canceled/,
    );
  });

  it("rejects an authorization signed by someone other than `from`", async () => {
    const { message, signature } = await signAuthorization({ signer: stranger });
    await expect(submit("transferWithAuthorization", vrsArgs(message, signature))).rejects.toThrow(
      /invalid signature/,
    );
  });

  it("rejects expired and not-yet-valid authorizations", async () => {
    const { timestamp } = await client.getBlock();
    const expired = await signAuthorization({ signer: holder, validBefore: timestamp - 1n });
    await expect(
      submit("transferWithAuthorization", vrsArgs(expired.message, expired.signature)),
    ).rejects.toThrow(/authorization is expired/);
    const early = await signAuthorization({ signer: holder, validAfter: timestamp + 3600n });
    await expect(
      submit("transferWithAuthorization", vrsArgs(early.message, early.signature)),
    ).rejects.toThrow(/authorization is not yet valid/);
  });

  it("rejects an authorization signed for the same token at another address", async () => {
    const copy: Address = "0x00000000000000000000000000000000c0ffee01";
    await installStablecoin(client, {
      address: copy,
      name: "USD Coin",
      symbol: "USDC",
      version: "2",
      decimals: 6,
      minter: faucet,
    });
    expect(await read("DOMAIN_SEPARATOR", [], copy)).not.toBe(await read("DOMAIN_SEPARATOR"));
    const { message, signature } = await signAuthorization({ signer: holder, token: copy });
    await expect(submit("transferWithAuthorization", vrsArgs(message, signature))).rejects.toThrow(
      /invalid signature/,
    );
  });

  it("lets only the payee submit receiveWithAuthorization", async () => {
    const payee = stranger;
    const { message, signature } = await signAuthorization({
      signer: holder,
      primaryType: "ReceiveWithAuthorization",
      to: payee.address,
    });
    await expect(
      submit("receiveWithAuthorization", vrsArgs(message, signature), faucet),
    ).rejects.toThrow(/caller must be the payee/);
    await submit("receiveWithAuthorization", vrsArgs(message, signature), payee);
    expect(await read("balanceOf", [payee.address])).toBe(message.value);
  });

  it("refuses a transfer after its authorization was canceled", async () => {
    const { message, signature } = await signAuthorization({ signer: holder });
    const cancel = await holder.signTypedData({
      domain: { name: "USD Coin", version: "2", chainId: 8453, verifyingContract: usdcAddress },
      types: authorizationTypes,
      primaryType: "CancelAuthorization",
      message: { authorizer: holder.address, nonce: message.nonce },
    });
    const { v, r, s } = parseSignature(cancel);
    await submit("cancelAuthorization", [holder.address, message.nonce, Number(v), r, s]);
    await expect(submit("transferWithAuthorization", vrsArgs(message, signature))).rejects.toThrow(
      /authorization is used or canceled/,
    );
  });

  it("lets only the minter mint and refuses a second initialisation", async () => {
    await expect(submit("mint", [stranger.address, 1n], stranger)).rejects.toThrow(
      /not the minter/,
    );
    await expect(
      submit("initialize", ["Fake", "FAKE", "9", 18, stranger.address], stranger),
    ).rejects.toThrow(/already initialized/);
  });

  it("keeps ERC-20 transfer, approve and transferFrom semantics", async () => {
    await submit("approve", [stranger.address, 5n], holder);
    expect(await read("allowance", [holder.address, stranger.address])).toBe(5n);
    await expect(submit("transferFrom", [holder.address, recipient, 6n])).rejects.toThrow(
      /exceeds allowance/,
    );
    await submit("transferFrom", [holder.address, recipient, 5n]);
    expect(await read("allowance", [holder.address, stranger.address])).toBe(0n);
    await expect(submit("transfer", [recipient, 10n ** 30n], holder)).rejects.toThrow(
      /exceeds balance/,
    );
    expect(await read("totalSupply")).toBe(parseUnits("100", 6));
  });
});
