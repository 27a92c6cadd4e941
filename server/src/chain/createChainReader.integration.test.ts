import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type AnvilInstance, artifacts, startAnvil } from "@presend/devnet";
import { chains, multicall3Address } from "@presend/shared/chains/chains";
import { viemChains } from "@presend/shared/chains/viemChains";
import {
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
  parseUnits,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { createChainReader } from "./createChainReader";

// anvil's first dev account (public test key, funded on every anvil chain).
const devKey: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
const base = chains.base;
const noUrls = { ethereum: [], arbitrum: [], optimism: [], polygon: [] };

type CountingProxy = { url: string; requests: () => number; close: () => Promise<void> };

/** A real HTTP hop in front of anvil that counts the requests the reader sends. */
async function countingProxy(target: string): Promise<CountingProxy> {
  let count = 0;
  const server: Server = createServer(async (req, res) => {
    count++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("createChainReader against a real anvil chain", () => {
  let anvil: AnvilInstance;
  let proxy: CountingProxy;
  const holder = privateKeyToAccount(generatePrivateKey());
  const dev = privateKeyToAccount(devKey);
  const delegated: Address = "0x7702770277027702770277027702770277027702";
  const delegate: Address = "0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B";
  const generic: Address = "0xC0de000000000000000000000000000000000C0d";
  // On no token list: a token only by what its code answers (totalSupply, decimals).
  const unlistedToken: Address = "0x7070707070707070707070707070707070707070";
  let multisig: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: base.id });
    proxy = await countingProxy(anvil.rpcUrl);
    const transport = http(anvil.rpcUrl);
    const test = createTestClient({ mode: "anvil", chain: viemChains.base, transport });
    const wallet = createWalletClient({ account: dev, chain: viemChains.base, transport });
    const client = createPublicClient({ chain: viemChains.base, transport });
    // The local world's pieces at their mainnet addresses: Multicall3 and a USDC-like token.
    await test.setCode({
      address: multicall3Address,
      bytecode: artifacts.Multicall3.deployedBytecode,
    });
    await test.setCode({
      address: base.usdc.address,
      bytecode: artifacts.PresendStablecoin.deployedBytecode,
    });
    await test.setCode({
      address: unlistedToken,
      bytecode: artifacts.PresendStablecoin.deployedBytecode,
    });
    const token = { address: base.usdc.address, abi: artifacts.PresendStablecoin.abi } as const;
    const initialize = await wallet.writeContract({
      ...token,
      functionName: "initialize",
      args: ["USD Coin", "USDC", "2", 6, dev.address],
    });
    await client.waitForTransactionReceipt({ hash: initialize });
    const mint = await wallet.writeContract({
      ...token,
      functionName: "mint",
      args: [holder.address, parseUnits("12.5", 6)],
    });
    await client.waitForTransactionReceipt({ hash: mint });
    // A real outgoing transaction from a funded fresh EOA gives it a nonce.
    await test.setBalance({ address: holder.address, value: parseEther("3") });
    const send = await createWalletClient({
      account: holder,
      chain: viemChains.base,
      transport,
    }).sendTransaction({ to: dev.address, value: parseEther("1") });
    await client.waitForTransactionReceipt({ hash: send });
    await test.setCode({ address: delegated, bytecode: `0xef0100${delegate.slice(2)}` });
    // Runtime code that reverts on every call: a contract that is neither a Safe nor a token.
    await test.setCode({ address: generic, bytecode: "0x60006000fd" });
    const deploy = await wallet.deployContract({
      abi: artifacts.DemoMultisig.abi,
      bytecode: artifacts.DemoMultisig.bytecode,
      args: [[dev.address, holder.address], 2n],
    });
    const receipt = await client.waitForTransactionReceipt({ hash: deploy });
    multisig = receipt.contractAddress as Address;
  });

  afterAll(async () => {
    await proxy?.close();
    await anvil?.stop();
  });

  it("reads an EOA's nonce, native and USDC balances and gas in exactly one HTTP request", async () => {
    const reader = createChainReader({ rpcUrls: { base: [proxy.url], ...noUrls } });
    const before = proxy.requests();
    const facts = await reader.read(holder.address, "base");
    expect(proxy.requests() - before).toBe(1);
    expect(facts).toMatchObject({
      name: "base",
      chainId: 8453,
      status: "ok",
      isContract: false,
      kind: "eoa",
      outgoingTxs: 1,
      usdc: { raw: "12500000", decimals: 6, formatted: "12.5", symbol: "USDC" },
      // No token code at the USDT and USDbC addresses on this chain: nothing held there.
      usdt: { raw: "0", formatted: "0", symbol: "USDT" },
      usdcBridged: { raw: "0", symbol: "USDbC" },
    });
    // 3 ETH in, 1 ETH sent, minus the fee: just under 2 ETH.
    expect(Number(facts.native?.formatted)).toBeGreaterThan(1.99);
    expect(Number(facts.native?.formatted)).toBeLessThan(2);
    expect(facts.native?.symbol).toBe("ETH");
    expect(BigInt(facts.gas?.gasPriceWei ?? "0")).toBeGreaterThan(0n);
    expect(BigInt(facts.gas?.nativeTransferCost.raw ?? "0")).toBe(
      BigInt(facts.gas?.gasPriceWei ?? "0") * 21_000n,
    );
    expect(BigInt(facts.blockNumber ?? "0")).toBeGreaterThan(0n);
    expect(reader.stats()).toMatchObject({ upstreamRequests: 1, perChain: { base: 1 } });

    await reader.read(holder.address, "base");
    expect(proxy.requests() - before).toBe(1);
    expect(reader.stats().cacheHits).toBe(1);
  });

  it("classifies a 7702 delegation, a Safe-like multisig, a token listed or not and a generic contract", async () => {
    const reader = createChainReader({ rpcUrls: { base: [proxy.url], ...noUrls } });
    const before = proxy.requests();
    const [seven, safe, token, unlisted, contract] = await Promise.all(
      [delegated, multisig, base.usdc.address, unlistedToken, generic].map((a) =>
        reader.read(a, "base"),
      ),
    );
    expect(proxy.requests() - before).toBe(5);
    expect(seven).toMatchObject({ isContract: false, kind: "eip7702-delegated", delegate });
    expect(safe).toMatchObject({ status: "ok", isContract: true, kind: "safe" });
    expect(token).toMatchObject({ status: "ok", isContract: true, kind: "token" });
    expect(unlisted).toMatchObject({ status: "ok", isContract: true, kind: "token" });
    expect(contract).toMatchObject({ status: "ok", isContract: true, kind: "contract" });
  });

  it("answers unavailable for a closed port and falls back past it to a live endpoint", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const dead = createChainReader({ rpcUrls: { base: [closed], ...noUrls } });
    const facts = await dead.read(holder.address, "base");
    expect(facts).toMatchObject({ status: "unavailable", kind: null, native: null });
    expect(facts.error).toMatch(
      /^all RPC endpoints failed: endpoint 1: network error \(ECONNREFUSED\)/,
    );

    const before = proxy.requests();
    const fallback = createChainReader({ rpcUrls: { base: [closed, proxy.url], ...noUrls } });
    expect(await fallback.read(holder.address, "base")).toMatchObject({
      status: "ok",
      outgoingTxs: 1,
    });
    expect(proxy.requests() - before).toBe(1);
    expect(fallback.stats().upstreamRequests).toBe(2);
  });

  it("refuses an endpoint that serves a different chain than configured", async () => {
    const reader = createChainReader({
      rpcUrls: { base: [], ethereum: [anvil.rpcUrl], arbitrum: [], optimism: [], polygon: [] },
    });
    const facts = await reader.read(holder.address, "ethereum");
    expect(facts.status).toBe("unavailable");
    expect(facts.error).toMatch(/wrong chain: expected id 1, endpoint reports 8453/);
  });
});
