import { type AnvilInstance, devnetClient, startAnvil } from "@presend/devnet";
import { createPublicClient, createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSettlementSender } from "./createSettlementSender";

// Against a real anvil chain: the sender's own nonces under concurrency, and a stuck transaction
// replaced at a higher fee with the same nonce.
describe("createSettlementSender", () => {
  let anvil: AnvilInstance;
  const account = privateKeyToAccount(generatePrivateKey());
  const sink = privateKeyToAccount(generatePrivateKey()).address;
  const senderFor = (options: { replaceAfterMs?: number } = {}) => {
    const chain = { ...base, rpcUrls: { default: { http: [anvil.rpcUrl] } } };
    const transport = http(anvil.rpcUrl);
    return createSettlementSender({
      client: createPublicClient({ chain, transport }) as never,
      wallet: createWalletClient({ account, chain, transport }),
      pollMs: 50,
      ...options,
    });
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    await devnetClient("base", anvil.rpcUrl).setBalance({
      address: account.address,
      value: 10n ** 20n,
    });
  });
  afterAll(() => anvil?.stop());

  it("sends 20 concurrent transactions with 20 consecutive nonces, all mined", async () => {
    const sender = senderFor();
    const chain = createPublicClient({ transport: http(anvil.rpcUrl) });
    const first = await chain.getTransactionCount({ address: account.address });
    const hashes = await Promise.all(
      Array.from({ length: 20 }, () => sender.send({ to: sink, data: "0x" })),
    );
    const receipts = await Promise.all(hashes.map((hash) => sender.waitForReceipt(hash)));
    expect(receipts.every((receipt) => receipt.status === "success")).toBe(true);
    const nonces = await Promise.all(
      hashes.map(async (hash) => (await chain.getTransaction({ hash })).nonce),
    );
    expect([...nonces].sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, index) => first + index),
    );
    expect(sender.pendingCount()).toBe(0);
  });

  it("replaces a transaction stuck in the pool with the same nonce at a higher fee", async () => {
    const test = devnetClient("base", anvil.rpcUrl);
    const sender = senderFor({ replaceAfterMs: 300 });
    await test.setAutomine(false);
    await test.setIntervalMining({ interval: 0 });
    try {
      const nonce = await createPublicClient({ transport: http(anvil.rpcUrl) }).getTransactionCount(
        { address: account.address },
      );
      const hash = await sender.send({ to: sink, data: "0x" });
      const waiting = sender.waitForReceipt(hash);
      // Nothing is mined until the replacement is in the pool.
      const deadline = Date.now() + 10_000;
      while (sender.finalHash(hash) === hash && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const replacement = sender.finalHash(hash);
      expect(replacement).not.toBe(hash);
      await test.mine({ blocks: 1 });
      const receipt = await waiting;
      expect(receipt.transactionHash).toBe(replacement);
      const chain = createPublicClient({ transport: http(anvil.rpcUrl) });
      const [mined, originalReceipt] = await Promise.all([
        chain.getTransaction({ hash: replacement }),
        chain.getTransactionReceipt({ hash }).catch(() => null),
      ]);
      // One of the two landed, never both: the replacement took the original's nonce.
      expect(originalReceipt).toBe(null);
      expect(mined.nonce).toBe(nonce);
      expect(mined.from.toLowerCase()).toBe(account.address.toLowerCase());
    } finally {
      await test.setAutomine(true);
    }
  });
});
