import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type AnvilInstance, devnetClient, startAnvil } from "@presend/devnet";
import {
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  keccak256,
  TransactionReceiptNotFoundError,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { base } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { keyHiddenFallbackTransport } from "../../http/keyHiddenFallbackTransport";
import { type FaultyRpc, startFaultyRpc } from "../testing/startFaultyRpc";
import { createSettlementSender } from "./createSettlementSender";
import { fileSenderJournal } from "./fileSenderJournal";

type SenderOptions = Omit<Parameters<typeof createSettlementSender>[0], "client" | "wallet">;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Against a real anvil chain: the sender's own nonces under concurrency, and transactions that
// would hold back every later settlement (stuck, lost, underpriced, taken over) resolved.
describe("createSettlementSender", () => {
  let anvil: AnvilInstance;
  const account = privateKeyToAccount(generatePrivateKey());
  const sink = privateKeyToAccount(generatePrivateKey()).address;
  /** While set, every eth_sendRawTransaction is lost before it reaches the node. */
  let loseBroadcasts = false;
  const losingFetch: typeof fetch = async (input, init) => {
    if (loseBroadcasts && String(init?.body ?? "").includes("eth_sendRawTransaction")) {
      throw new TypeError("fetch failed");
    }
    return fetch(input, init);
  };
  const senderFor = (options: SenderOptions = {}) => {
    const chain = { ...base, rpcUrls: { default: { http: [anvil.rpcUrl] } } };
    const transport = http(anvil.rpcUrl, { fetchFn: losingFetch, retryCount: 0 });
    return createSettlementSender({
      client: createPublicClient({ chain, transport }) as never,
      wallet: createWalletClient({ account, chain, transport }),
      pollMs: 50,
      ...options,
    });
  };
  const reader = () => createPublicClient({ transport: http(anvil.rpcUrl) });
  const withManualMining = async (run: () => Promise<void>) => {
    const test = devnetClient("base", anvil.rpcUrl);
    await test.setAutomine(false);
    await test.setIntervalMining({ interval: 0 });
    try {
      await run();
    } finally {
      await test.setAutomine(true);
    }
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
    await withManualMining(async () => {
      const nonce = await reader().getTransactionCount({ address: account.address });
      const hash = await sender.send({ to: sink, data: "0x" });
      const waiting = sender.waitForReceipt(hash);
      // Nothing is mined until a replacement is in the pool.
      const deadline = Date.now() + 10_000;
      while (sender.finalHash(hash) === hash && Date.now() < deadline) await sleep(50);
      expect(sender.finalHash(hash)).not.toBe(hash);
      await test.mine({ blocks: 1 });
      const receipt = await waiting;
      expect(receipt.transactionHash).toBe(sender.finalHash(hash));
      const [mined, originalReceipt] = await Promise.all([
        reader().getTransaction({ hash: receipt.transactionHash }),
        reader()
          .getTransactionReceipt({ hash })
          .catch(() => null),
      ]);
      // One of them landed, never two: every replacement took the original's nonce.
      expect(originalReceipt).toBe(null);
      expect(mined.nonce).toBe(nonce);
      expect(mined.from.toLowerCase()).toBe(account.address.toLowerCase());
    });
  });

  it("sends a lost transaction again after its waiter gave up, so later settlements are not held back", async () => {
    const sender = senderFor({ confirmationTimeoutMs: 300, rebroadcastMs: 1_000 });
    const first = await reader().getTransactionCount({ address: account.address });
    loseBroadcasts = true;
    let lost: Hex;
    try {
      lost = await sender.send({ to: sink, data: "0x" });
      // The caller hears "not mined" and goes away; nobody waits for this nonce any more.
      await expect(sender.waitForReceipt(lost)).rejects.toThrow(/not mined/);
    } finally {
      loseBroadcasts = false;
    }
    const later = await sender.send({ to: sink, data: "0x" });
    const receipt = await reader().waitForTransactionReceipt({ hash: later, timeout: 15_000 });
    expect(receipt.status).toBe("success");
    const lostReceipt = await reader().getTransactionReceipt({ hash: lost });
    expect([lostReceipt.transactionHash, receipt.transactionHash]).toEqual([lost, later]);
    expect(await reader().getTransactionCount({ address: account.address })).toBe(first + 2);
    while (sender.pendingCount() > 0) await sleep(50);
  });

  it("re-reads the chain's fees when a base fee rise leaves the lowest transaction unminable", async () => {
    const test = devnetClient("base", anvil.rpcUrl);
    const sender = senderFor({ replaceAfterMs: 300 });
    await withManualMining(async () => {
      const hash = await sender.send({ to: sink, data: "0x" });
      const sent = await reader().getTransaction({ hash });
      const cap = sent.maxFeePerGas ?? 0n;
      // Fifty times the cap: one 1.3x bump (or several) from the old fee cannot reach it.
      await test.setNextBlockBaseFeePerGas({ baseFeePerGas: cap * 50n });
      await test.mine({ blocks: 1 });
      const waiting = sender.waitForReceipt(hash);
      const deadline = Date.now() + 10_000;
      for (;;) {
        const current = sender.finalHash(hash);
        const replacement =
          current === hash ? null : await reader().getTransaction({ hash: current });
        if ((replacement?.maxFeePerGas ?? 0n) > cap * 40n || Date.now() > deadline) break;
        await sleep(50);
      }
      await test.mine({ blocks: 1 });
      const receipt = await waiting;
      expect(receipt.status).toBe("success");
      expect(receipt.transactionHash).not.toBe(hash);
      expect(receipt.effectiveGasPrice).toBeGreaterThan(cap * 40n);
    });
  });

  it("a restarted sender adopts the transactions its predecessor left unmined and replaces them at a higher fee", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-journal-"));
    const journal = fileSenderJournal(join(dir, "journal.json"));
    const test = devnetClient("base", anvil.rpcUrl);
    try {
      await withManualMining(async () => {
        const nonce = await reader().getTransactionCount({ address: account.address });
        // The predecessor broadcasts, then dies before anything is mined (it never replaces).
        const predecessor = senderFor({ journal, replaceAfterMs: 600_000, rebroadcastMs: 600_000 });
        const left = await predecessor.send({ to: sink, data: "0x" });
        const leftFee = (await reader().getTransaction({ hash: left })).maxFeePerGas ?? 0n;
        expect((await journal.read()).map((entry) => entry.nonce)).toEqual([nonce]);

        const successor = senderFor({ journal, replaceAfterMs: 600_000 });
        // Adopted and replaced at once, before the successor sends anything of its own.
        const deadline = Date.now() + 10_000;
        while (successor.finalHash(left) === left && Date.now() < deadline) await sleep(50);
        const replacement = successor.finalHash(left);
        expect(replacement).not.toBe(left);
        const bumped = await reader().getTransaction({ hash: replacement });
        expect(bumped.nonce).toBe(nonce);
        expect(bumped.maxFeePerGas ?? 0n).toBeGreaterThan(leftFee);
        // Its own settlement takes the next nonce, not the predecessor's.
        const own = await successor.send({ to: sink, data: "0x" });
        expect((await reader().getTransaction({ hash: own })).nonce).toBe(nonce + 1);
        await test.mine({ blocks: 1 });
        expect((await successor.waitForReceipt(left)).transactionHash).toBe(replacement);
        expect((await successor.waitForReceipt(own)).status).toBe("success");
        // Mined: the journal forgets them.
        await expect.poll(() => journal.read(), { timeout: 5_000 }).toEqual([]);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("does not adopt a journal whose first nonce is past the chain's (another chain's: a local world started afresh on the same data dir)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-journal-"));
    const journal = fileSenderJournal(join(dir, "journal.json"));
    try {
      const nonce = await reader().getTransactionCount({ address: account.address });
      // What a sender on another chain left unmined: nonces this chain's account never reached.
      const chain = { ...base, rpcUrls: { default: { http: [anvil.rpcUrl] } } };
      const wallet = createWalletClient({ account, chain, transport: http(anvil.rpcUrl) });
      const request = await wallet.prepareTransactionRequest({ to: sink, nonce: nonce + 3 });
      const raw = await wallet.signTransaction(request as never);
      await journal.write([
        { nonce: nonce + 3, request: { to: sink, data: "0x" }, raw, hashes: [keccak256(raw)] },
      ]);
      const sender = senderFor({ journal });
      const own = await sender.send({ to: sink, data: "0x" });
      // Numbered from the chain, not behind a gap no transaction fills: mined.
      expect((await reader().getTransaction({ hash: own })).nonce).toBe(nonce);
      const mined = await Promise.race([sender.waitForReceipt(own), sleep(5_000)]);
      expect(mined).toMatchObject({ status: "success" });
      // The other chain's transaction is forgotten, never sent here.
      expect((await journal.read()).map((entry) => entry.nonce)).not.toContain(nonce + 3);
      expect(await reader().getTransactionCount({ address: account.address })).toBe(nonce + 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("tells its waiter at once when another transaction took the nonce", async () => {
    const test = devnetClient("base", anvil.rpcUrl);
    const sender = senderFor({ confirmationTimeoutMs: 60_000, replaceAfterMs: 60_000 });
    await withManualMining(async () => {
      const hash = await sender.send({ to: sink, data: "0x" });
      const ours = await reader().getTransaction({ hash });
      // The same key used elsewhere: a transfer at the same nonce, paid far more, wins the slot.
      const wallet = createWalletClient({ account, chain: base, transport: http(anvil.rpcUrl) });
      await wallet.sendTransaction({
        to: account.address,
        value: 0n,
        nonce: ours.nonce,
        maxFeePerGas: (ours.maxFeePerGas ?? 0n) * 3n,
        maxPriorityFeePerGas: (ours.maxPriorityFeePerGas ?? 0n) * 3n + 1n,
      });
      await test.mine({ blocks: 1 });
      const started = Date.now();
      await expect(sender.waitForReceipt(hash)).rejects.toThrow(/dropped/);
      // Long before the 60 s confirmation timeout.
      expect(Date.now() - started).toBeLessThan(30_000);
    });
  });
});

// Two endpoints through viem's fallback, as RPC_URLS_BASE lists them, in front of one real anvil:
// the first takes the broadcast and loses its answer, then stops answering altogether; the
// second refuses the same signed transaction ("nonce too low": the first copy is already mined)
// and, rate-limited on eth_getTransactionByHash, cannot say it knows it.
describe("createSettlementSender over two endpoints, the first losing the broadcast's answer", () => {
  let anvil: AnvilInstance;
  let first: FaultyRpc;
  let second: FaultyRpc;
  const account = privateKeyToAccount(generatePrivateKey());
  const sink = privateKeyToAccount(generatePrivateKey()).address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    await devnetClient("base", anvil.rpcUrl).setBalance({
      address: account.address,
      value: 10n ** 20n,
    });
    first = await startFaultyRpc(anvil.rpcUrl);
    second = await startFaultyRpc(anvil.rpcUrl);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await anvil?.stop();
  });

  it("keeps the transaction as in flight: sent once, mined once, never signed again at another nonce", async () => {
    const chain = { ...base, rpcUrls: { default: { http: [first.url, second.url] } } };
    const transport = keyHiddenFallbackTransport([first.url, second.url], {
      timeoutMs: 500,
      retryCount: 0,
    });
    const sender = createSettlementSender({
      client: createPublicClient({ chain, transport }) as never,
      wallet: createWalletClient({ account, chain, transport }),
      pollMs: 50,
    });
    const reader = createPublicClient({ transport: http(anvil.rpcUrl) });
    const nonceBefore = await reader.getTransactionCount({ address: account.address });
    first.mode = "downAfterSend";
    second.failingMethod = "eth_getTransactionByHash";
    const hash = await sender.send({ to: sink, data: "0x" });
    expect(second.calls).toContain("eth_sendRawTransaction");
    const receipt = await sender.waitForReceipt(hash);
    expect(receipt).toMatchObject({ transactionHash: hash, status: "success" });
    // The account's nonce moved by one, and that one is ours: nothing was signed and sent twice.
    expect(await reader.getTransactionCount({ address: account.address })).toBe(nonceBefore + 1);
    expect((await reader.getTransaction({ hash })).nonce).toBe(nonceBefore);
    expect(sender.pendingCount()).toBe(0);
  });
});

describe("createSettlementSender waiting for a receipt", () => {
  it("asks again within milliseconds at first, not a whole poll later (a node mining on arrival)", async () => {
    vi.useFakeTimers();
    try {
      const hash = keccak256("0x01");
      let reads = 0;
      // The node has the receipt from its second answer on, as a node that mines on arrival does
      // a moment after the broadcast returned.
      const client = {
        getTransactionReceipt: async () => {
          reads += 1;
          if (reads < 2) throw new TransactionReceiptNotFoundError({ hash });
          return { transactionHash: hash, status: "success" };
        },
      };
      const sender = createSettlementSender({
        client: client as never,
        wallet: { account: privateKeyToAccount(generatePrivateKey()) } as never,
        pollMs: 1_000,
      });
      let receipt: unknown;
      void sender.waitForReceipt(hash).then((value) => {
        receipt = value;
      });
      await vi.advanceTimersByTimeAsync(10);
      expect(reads).toBe(2);
      expect(receipt).toMatchObject({ transactionHash: hash });
    } finally {
      vi.useRealTimers();
    }
  });
});
