import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient, createSessionSpendCap } from "@presend/client";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannelChain } from "../payments/channels/createChannelChain";
import { reconcileChannelCharges } from "../payments/channels/reconcileChannelCharges";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { channelOptions } from "./channelOptions";
import { exitCodes, runCli } from "./runCli";

// `presend check` against the paid API offering channels (on by default), on a
// payment lane of the shared world: the first run deposits, the later runs (each a new process's
// worth of state: a new client) pay with vouchers signed by the session key the config dir keeps.
// Then the client as the MCP server holds it (one process, a session spend cap): closing the
// channel gives the cap back what the refund returned on chain.
const { world, lane, fund } = sharedPaymentWorld();
const payerKey = devnetPrivateKey(`lane-${lane.index}-cli-channel-payer`);
const payer = privateKeyToAccount(payerKey);
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`);
const target = devnetAccounts.activeOnBase.address;

describe("presend CLI paying over a channel", () => {
  let stack: PaidStack;
  const configDir = mkdtempSync(join(tmpdir(), "presend-cli-channel-"));
  const chain = devnetClient("base", world.chains.base.rpcUrl);
  /** How many paid requests (a PAYMENT-SIGNATURE sent) the CLI's runs made. */
  let paidRequests = 0;
  const cli = async (
    argv: string[],
    env: Record<string, string> = {},
    dir = configDir,
    through: typeof fetch = async (input, init) =>
      stack.app.request(input instanceof Request ? input : new Request(input, init)),
  ) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      env: {
        PRESEND_URL: stack.publicUrl,
        PRESEND_PRIVATE_KEY: payerKey,
        PRESEND_CHANNEL_DEPOSIT: "0.05",
        ...env,
      },
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      configDir: dir,
      fetch: async (input, init) => {
        const request = input instanceof Request ? input : new Request(input, init);
        if (request.headers.has("payment-signature")) paidRequests += 1;
        return through(request);
      },
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };

  /**
   * A fetch to the stack that, while `losing()`, loses the answer of every paid request and
   * /receipts read after the server has handled it: the server charged, the client cannot tell.
   */
  const losingPaidAnswers =
    (losing: () => boolean): typeof fetch =>
    async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const answer = await stack.app.request(request);
      const lost =
        request.headers.has("payment-signature") ||
        new URL(request.url).pathname.startsWith("/receipts");
      if (losing() && lost) throw new TypeError("fetch failed: the connection was reset");
      return answer;
    };

  const channelStore = () => {
    const store = stack.payments.channels?.store;
    if (!store) throw new Error("the stack offers no channels");
    return store;
  };
  const sessionClient = (
    wallet: ReturnType<typeof privateKeyToAccount>,
    cap: ReturnType<typeof createSessionSpendCap>,
    voucherKey = generatePrivateKey(),
  ) =>
    createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(voucherKey)),
        deposit: 5n * routePrices.check,
      },
    });

  beforeAll(async () => {
    stack = await startPaidStack({ world, receiverAuthorizerKey });
    await fund(payer.address, 10n * routePrices.check);
  });
  afterAll(async () => {
    await stack?.stop();
    rmSync(configDir, { recursive: true, force: true });
  });

  it("deposits once, then three runs pay with vouchers and no transaction", async () => {
    const transactions = () => chain.getTransactionCount({ address: lane.facilitator.address });
    const before = await transactions();
    const first = await cli(["check", target]);
    expect(first.code, first.stderr).toBe(exitCodes.ok);
    expect(first.stderr).toContain("over the payment channel");
    expect(await transactions()).toBe(before + 1);
    for (let run = 0; run < 3; run += 1) {
      const next = await cli(["check", target, "--json"]);
      expect(next.code, next.stderr).toBe(exitCodes.ok);
      expect(JSON.parse(next.stdout)).toMatchObject({ address: expect.any(String) });
    }
    expect(await transactions()).toBe(before + 1);
    expect(await stack.records.count("pending")).toBe(4);
    // The session key stays in the config dir, readable by its owner only.
    expect(statSync(join(configDir, "channel-session.key")).mode & 0o777).toBe(0o600);
  });

  it("`presend close` gets the rest of the deposit back", async () => {
    const before = await stack.usdcBalance(payer.address);
    const closed = await cli(["close"]);
    expect(closed.code, closed.stderr).toBe(exitCodes.ok);
    expect(closed.stdout).toContain("channel closed");
    // 0.05 deposited, four checks of 0.01 charged: 0.01 comes back.
    expect(await stack.usdcBalance(payer.address)).toBe(before + routePrices.check);
    // The refund claimed the four vouchers first: the reconcile settles their records.
    await stack.reconcile();
    expect(await stack.records.count("pending")).toBe(0);
    expect(await stack.records.count("settled")).toBe(4);
  });

  it("after `presend close`, the next run pays through a new channel: one new deposit", async () => {
    const transactions = () => chain.getTransactionCount({ address: lane.facilitator.address });
    const before = await transactions();
    const payerBefore = await stack.usdcBalance(payer.address);
    const paidBefore = paidRequests;
    // Other addresses than before: the same check would be read again signed in, unpaid.
    const again = await cli(["check", devnetAccounts.sweptOnBase.address]);
    expect(again.code, again.stderr).toBe(exitCodes.ok);
    expect(again.stderr).toContain("over the payment channel");
    // Straight to the new channel: no deposit signed first into the closed one and refused.
    expect(paidRequests - paidBefore).toBe(1);
    // One deposit (0.05) into a new channel, then a voucher run with no transaction.
    expect(await transactions()).toBe(before + 1);
    const next = await cli(["check", devnetAccounts.receiveOnlyOnBase.address, "--json"]);
    expect(next.code, next.stderr).toBe(exitCodes.ok);
    expect(await transactions()).toBe(before + 1);
    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 5n * routePrices.check);
    const closed = await cli(["close"]);
    expect(closed.code, closed.stderr).toBe(exitCodes.ok);
    // Two checks charged of the new deposit, three checks' worth back.
    expect(await stack.usdcBalance(payer.address)).toBe(payerBefore - 2n * routePrices.check);
  });

  it("a session's spend cap gets back exactly what the close refunded on chain", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-capped-payer`));
    await fund(wallet.address, 10n * price);
    const cap = createSessionSpendCap(10n * price);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        deposit: 5n * price,
      },
    });
    for (let check = 0; check < 3; check += 1) {
      expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    }
    // The deposit is held whole while the channel is open.
    expect(cap.spent()).toBe(5n * price);
    const before = await stack.usdcBalance(wallet.address);
    const closed = await client.closeChannel();
    expect(closed).toMatchObject({ type: "closed", refunded: String(2n * price) });
    const returned = (await stack.usdcBalance(wallet.address)) - before;
    expect(returned).toBe(2n * price);
    // What came back on chain is credited, no more: the cap holds the three checks.
    expect(cap.spent()).toBe(5n * price - returned);
    expect(cap.spent()).toBe(3n * price);
  });

  it("closes, then pays again over a new deposit; payee and payer reconciled with the chain", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-reopen-payer`));
    await fund(wallet.address, 20n * price);
    const cap = createSessionSpendCap(8n * price);
    const client = sessionClient(wallet, cap);
    // Sends what the escrow holds claimed for the payee to it (nothing to send is no error).
    const settleClaimed = () =>
      stack.payments.channels
        ?.manager()
        .settle()
        .catch((error: unknown) => {
          if (!String(error).includes("nothing_to_settle")) throw error;
        });
    // What earlier tests claimed is swept first, so the payee's gain below is this test's.
    await settleClaimed();
    const payeeBefore = await stack.usdcBalance(lane.payTo.address);
    const walletBefore = await stack.usdcBalance(wallet.address);
    const reports: string[] = [];
    const check = async () => {
      const result = await client.check({ address: target });
      expect(result).toMatchObject({ type: "report", charged: true });
      if (result.type === "report") reports.push(result.settlement.transaction);
    };
    for (let run = 0; run < 3; run += 1) await check();
    expect(await client.closeChannel()).toMatchObject({
      type: "closed",
      refunded: String(2n * price),
    });
    expect(cap.spent()).toBe(3n * price);
    // A deposit of five checks fits the cap again only because the close credited it.
    for (let run = 0; run < 4; run += 1) await check();
    expect(cap.spent()).toBe(8n * price);
    expect(await client.closeChannel()).toMatchObject({ type: "closed", refunded: String(price) });
    expect(cap.spent()).toBe(7n * price);
    await settleClaimed();
    // Seven checks, each charged once: the payee got them, the payer the refunds.
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payeeBefore + 7n * price);
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 7n * price);
    expect(new Set(reports).size).toBe(7);
    // Every report's record is settled from the escrow's own Claimed events (read afresh here).
    await reconcileChannelCharges({
      store: channelStore(),
      records: stack.payments.records,
      chain: createChannelChain({ rpcUrls: [world.chains.base.rpcUrl] }),
    });
    for (const nonce of reports) {
      expect(await stack.records.byAuthorization({ payer: wallet.address, nonce })).toMatchObject({
        status: "settled",
      });
    }
  });

  it("after the server refunds an idle channel, the next check pays once over a new deposit and the cap gets the refund back", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-idle-payer`));
    await fund(wallet.address, 20n * price);
    const cap = createSessionSpendCap(8n * price);
    const client = sessionClient(wallet, cap);
    const walletBefore = await stack.usdcBalance(wallet.address);
    for (let run = 0; run < 3; run += 1) {
      expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    }
    const refunds =
      (await stack.payments.channels?.manager().refundIdleChannels({ idleSecs: 0 })) ?? [];
    expect(refunds).toHaveLength(1);
    // The rest (two checks) came back on chain; the client learns it from the next answer.
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 3n * price);
    const pending = await stack.records.count("pending");
    const next = await client.check({ address: target });
    expect(next).toMatchObject({ type: "report", charged: true });
    // Charged once: one more record, one new deposit of five checks.
    expect(await stack.records.count("pending")).toBe(pending + 1);
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 8n * price);
    // The cap: three checks, the refund credited (not more), the new deposit held whole.
    expect(cap.spent()).toBe(8n * price);
    expect(await client.closeChannel()).toMatchObject({
      type: "closed",
      refunded: String(4n * price),
    });
    expect(cap.spent()).toBe(4n * price);
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 4n * price);
  });

  it("after the server refunds an idle channel, a session with the default deposit filling its cap pays on over a deposit of what the cap has left", async () => {
    // The MCP server's defaults: the deposit is the client's (ten checks), bounded by the cap,
    // which is ten checks too. The refund is credited to the cap only as far as it is known to
    // have come back, so the whole default no longer fits: every later check was refused.
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-idle-full-cap`));
    await fund(wallet.address, 30n * price);
    const cap = createSessionSpendCap(10n * price);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        maxDeposit: 10n * price,
      },
    });
    const walletBefore = await stack.usdcBalance(wallet.address);
    for (const address of [target, devnetAccounts.sweptOnBase.address]) {
      expect(await client.check({ address })).toMatchObject({ type: "report" });
    }
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 10n * price);
    const refunds =
      (await stack.payments.channels?.manager().refundIdleChannels({ idleSecs: 0 })) ?? [];
    expect(refunds).toHaveLength(1);
    const pending = await stack.records.count("pending");
    // Refused once with cumulative_exceeds_balance (nothing charged), then paid over a new
    // channel whose deposit is the eight checks the cap has left; and the next ones over it.
    for (const address of [
      devnetAccounts.receiveOnlyOnBase.address,
      devnetAccounts.delegatedOnBase.address,
    ]) {
      const next = await client.check({ address });
      expect(next, JSON.stringify(next)).toMatchObject({ type: "report", charged: true });
    }
    expect(await stack.records.count("pending")).toBe(pending + 2);
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 2n * price - 8n * price);
    expect(cap.spent()).toBe(10n * price);
    // The new channel's rest comes back on close: four checks paid in all.
    expect(await client.closeChannel()).toMatchObject({
      type: "closed",
      refunded: String(6n * price),
    });
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 4n * price);
  });

  it("a check whose answer was lost, then an idle refund: its report is there right after the refund claims it, one new deposit follows, and the cap never holds less than left the wallet", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-lost-answer`));
    await fund(wallet.address, 20n * price);
    const cap = createSessionSpendCap(12n * price);
    let loseAnswers = false;
    // The server pays the check and answers; the answer, and every /receipts read after it, is
    // lost on the way back, so the client cannot know whether the check was charged.
    const lossy = losingPaidAnswers(() => loseAnswers);
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      spendCap: cap,
      fetch: lossy,
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        deposit: 5n * price,
      },
    });
    const walletBefore = await stack.usdcBalance(wallet.address);
    expect(await client.check({ address: target })).toMatchObject({ type: "report" });
    loseAnswers = true;
    const lostCheck = await client.check({ address: target });
    expect(lostCheck).toMatchObject({ type: "unrecovered", charged: "unknown" });
    loseAnswers = false;
    // A reconcile a moment before the refund, as the server's own runs every 30 s and after each
    // claim: the one after the refund's claim must still see that claim.
    await stack.payments.channels?.reconcile();
    const refunds =
      (await stack.payments.channels?.manager().refundIdleChannels({ idleSecs: 0 })) ?? [];
    expect(refunds).toHaveLength(1);
    // Both checks were charged: the refund sent back the other three, the two stay claimable.
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 2n * price);
    // The lost check was charged, and the refund claimed its voucher first: the server's
    // reconcile after that claim (the one before it, a moment ago, read an older head) settled
    // its record, and its report is there to fetch.
    if (lostCheck.type !== "unrecovered") throw new Error("the lost check was not unrecovered");
    const { payer: lostPayer, nonce } = lostCheck.authorization;
    const fetched = await client.receipt({ payer: lostPayer, nonce });
    expect(fetched, JSON.stringify(fetched)).toMatchObject({
      type: "report",
      charged: true,
    });
    expect(await client.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
    });
    // The wallet paid three checks and holds the new deposit's rest in its channel.
    const paid = walletBefore - (await stack.usdcBalance(wallet.address));
    expect(paid).toBe(7n * price);
    // The refund claimed the lost check first, so the client's next voucher fell below the
    // claimed total (not beyond the balance): it cannot tell from that answer whether anything
    // came back, so the cap keeps the old deposit whole. It errs on holding more, never less.
    expect(cap.spent()).toBe(10n * price);
  });

  it("a run whose answer was lost names `presend receipt`; the next run resyncs from Base and pays on over the same deposit, and the receipt command gets the lost report", async () => {
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-resync-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-resync-"));
    const env = { PRESEND_PRIVATE_KEY: walletKey, PRESEND_BASE_RPC_URL: world.chains.base.rpcUrl };
    let losing = false;
    try {
      const before = await stack.usdcBalance(wallet.address);
      const first = await cli(["check", target], env, ownDir);
      expect(first.code, first.stderr).toBe(exitCodes.ok);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 5n * price);
      losing = true;
      const lost = await cli(
        ["check", devnetAccounts.sweptOnBase.address],
        env,
        ownDir,
        losingPaidAnswers(() => losing),
      );
      losing = false;
      expect(lost.code, lost.stderr).toBe(exitCodes.chargedNoReport);
      expect(lost.stderr).toContain("charged: unknown");
      const nonce = /to fetch the report: presend receipt (0x[0-9a-f]{64})/.exec(lost.stderr)?.[1];
      expect(nonce, lost.stderr).toBeDefined();
      // The server charged the lost voucher; this run's state did not learn it. The next run is
      // refused once (out of step), resyncs from the escrow and pays: no new deposit.
      const next = await cli(["check", devnetAccounts.receiveOnlyOnBase.address], env, ownDir);
      expect(next.code, next.stderr).toBe(exitCodes.ok);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 5n * price);
      // Once a claim covers the lost voucher, its report is fetched by the id the run named.
      await stack.payments.channels?.manager().claim();
      const again = await cli(["receipt", nonce ?? "", "--json"], env, ownDir);
      expect(again.code, again.stderr).toBe(exitCodes.ok);
      expect(again.stderr).toContain("charged: yes");
      expect(JSON.parse(again.stdout)).toMatchObject({
        address: devnetAccounts.sweptOnBase.address,
      });
      // Three checks charged once each: the close sends back the other two of the five.
      const closed = await cli(["close"], env, ownDir);
      expect(closed.code, closed.stderr).toBe(exitCodes.ok);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 3n * price);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it("a client that lost the closed channel's salt is refused before a charge, then pays once over a new channel", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-lost-payer`));
    const voucherKey = generatePrivateKey();
    await fund(wallet.address, 20n * price);
    const first = sessionClient(wallet, createSessionSpendCap(10n * price), voucherKey);
    expect(await first.check({ address: target })).toMatchObject({ type: "report" });
    expect(await first.closeChannel()).toMatchObject({ type: "closed" });
    const walletBefore = await stack.usdcBalance(wallet.address);
    const pending = await stack.records.count("pending");
    // Same wallet and session key, state and salt forgotten: the package's zero salt names the
    // closed channel, whose claimed total its vouchers would count below.
    const cap = createSessionSpendCap(10n * price);
    const forgetful = sessionClient(wallet, cap, voucherKey);
    expect(await forgetful.check({ address: target })).toMatchObject({
      type: "report",
      charged: true,
    });
    expect(await stack.records.count("pending")).toBe(pending + 1);
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore - 5n * price);
    // The refused deposit was released: the cap holds the one sent.
    expect(cap.spent()).toBe(5n * price);
  });

  it("a retry with the payment id of a check paid on its own gets that payment's report, charged once: no deposit, no voucher", async () => {
    const price = routePrices.check;
    const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-cli-retry-payer`));
    await fund(wallet.address, 20n * price);
    const paymentId = "exact-then-retried-with-a-channel";
    // The first attempt pays on its own (exact, as --no-channel or a server without channels
    // pays): the server settles it, then its answer and the receipts are lost on the way back.
    const lossy = losingPaidAnswers(() => true);
    const exact = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      fetch: lossy,
    });
    const firstTry = await exact.check({ address: target, paymentId });
    expect(firstTry, JSON.stringify(firstTry)).toMatchObject({
      type: "unrecovered",
      charged: "unknown",
      paymentId,
    });
    const walletBefore = await stack.usdcBalance(wallet.address);
    // The retry, as the CLI prints it and the MCP tool error names it, from a client that pays
    // over a channel when it may: the id belongs to that exact payment, answered from its record.
    const cap = createSessionSpendCap(10n * price);
    const again = await sessionClient(wallet, cap).check({ address: target, paymentId });
    expect(again).toMatchObject({ type: "report", charged: true, paymentId });
    expect(await stack.usdcBalance(wallet.address)).toBe(walletBefore);
    expect(cap.spent()).toBe(price);
    expect(await stack.records.byPaymentId(paymentId)).toMatchObject({ status: "settled" });
  });

  it("a Base endpoint that fails the channel's first read is one line on stderr: what failed, charged: no, what to do, never the endpoint", async () => {
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-rpc-down-payer`);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-rpc-down-"));
    // The key in the endpoint's path is what providers put there; nothing listens on port 9.
    const rpcUrl = "http://127.0.0.1:9/v2/rpc-secret-key";
    try {
      const paidBefore = paidRequests;
      const result = await cli(
        ["check", target],
        { PRESEND_PRIVATE_KEY: walletKey, PRESEND_BASE_RPC_URL: rpcUrl },
        ownDir,
      );
      expect(result.code, result.stderr).toBe(exitCodes.serverError);
      // viem's error text ran over several lines with the URL and the request body in them.
      const [pinned, failed, ...more] = result.stderr.trim().split("\n");
      expect(pinned).toMatch(/^presend: pinned attestation key/);
      expect(more, result.stderr).toEqual([]);
      expect(result.stderr).not.toMatch(/rpc-secret-key|127\.0\.0\.1:9|eth_call|Request body/);
      expect(failed).toMatch(
        /^presend: The channel payment could not be prepared \(reading the channel on Base, or signing\): HTTP request failed\. \(charged: no\) retry presend check;/,
      );
      expect(result.stderr).toContain("PRESEND_BASE_RPC_URL");
      expect(paidRequests).toBe(paidBefore);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      "over a channel (its deposit)",
      [],
      /for the \$0\.05 payment channel deposit this check of \$0\.01 is paid from/,
    ],
    ["on its own (exact)", ["--no-channel"], /for this check's price of \$0\.01\./],
  ])(
    "a key with no USDC paying %s is told so in a sentence: the address, the amount, charged: no, what to do",
    async (_, flags, needed) => {
      const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-penniless-payer`);
      const wallet = privateKeyToAccount(walletKey);
      const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-penniless-"));
      try {
        expect(await stack.usdcBalance(wallet.address)).toBe(0n);
        const result = await cli(
          ["check", target, ...flags],
          { PRESEND_PRIVATE_KEY: walletKey },
          ownDir,
        );
        expect(result.code, result.stderr).toBe(exitCodes.paymentFailed);
        expect(result.stderr).toContain(
          `presend: the server refused the payment: The paying address ${wallet.address} holds too little USDC on Base`,
        );
        expect(result.stderr).toMatch(needed);
        expect(result.stderr).toContain(
          `nothing was charged. Send USDC on Base to ${wallet.address}`,
        );
        expect(result.stderr).not.toMatch(
          /invalid_(exact|batch_settlement)_evm_insufficient_balance/,
        );
        expect(result.stderr).toContain("presend: charged: no");
        expect(await stack.usdcBalance(wallet.address)).toBe(0n);
      } finally {
        rmSync(ownDir, { recursive: true, force: true });
      }
    },
  );

  it("refuses a malformed deposit before paying anything", async () => {
    const result = await cli(["check", target], { PRESEND_CHANNEL_DEPOSIT: "ten" });
    expect(result.code).toBe(exitCodes.usage);
    expect(result.stderr).toContain("PRESEND_CHANNEL_DEPOSIT");
  });

  it("a daily ledger that cannot be opened refuses the deposit by its file and what to do with it, never as a cap to raise: nothing paid", async () => {
    // A wallet of its own: a check this file's payer made before would be read again, unpaid.
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-ledger-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 10n * routePrices.check);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-ledger-"));
    try {
      // Something else in the ledger's place: SQLite cannot open it.
      mkdirSync(join(ownDir, "spend.sqlite"));
      const paidBefore = paidRequests;
      const before = await stack.usdcBalance(wallet.address);
      const result = await cli(["check", target], { PRESEND_PRIVATE_KEY: walletKey }, ownDir);
      expect(result.code, result.stderr).toBe(exitCodes.refusedToPay);
      expect(result.stderr).toContain(
        `The daily spend ledger ${join(ownDir, "spend.sqlite")} cannot be read or written`,
      );
      expect(result.stderr).toMatch(/a file you can read and write.*move it away/);
      expect(result.stderr).not.toMatch(
        /raise the cap|PRESEND_SPEND_CAP|PRESEND_CHANNEL_DEPOSIT|smaller deposit/,
      );
      expect(result.stderr).toContain("presend: charged: no");
      expect(paidRequests).toBe(paidBefore);
      expect(await stack.usdcBalance(wallet.address)).toBe(before);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it("`presend close` of a channel whose deposit the checks spent whole says there is nothing left to refund, in presend's words", async () => {
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-spent-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 2n * price);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-spent-"));
    try {
      const env = { PRESEND_PRIVATE_KEY: walletKey, PRESEND_CHANNEL_DEPOSIT: "0.02" };
      for (const address of [target, devnetAccounts.sweptOnBase.address]) {
        const paid = await cli(["check", address], env, ownDir);
        expect(paid.code, paid.stderr).toBe(exitCodes.ok);
      }
      const before = await stack.usdcBalance(wallet.address);
      const closed = await cli(["close"], env, ownDir);
      expect(closed.code).toBe(exitCodes.serverError);
      expect(closed.stderr).toBe(
        "presend: Nothing left to refund: the channel's deposit was all spent on checks. (charged: no)",
      );
      expect(await stack.usdcBalance(wallet.address)).toBe(before);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it("`presend close` against a refund challenge without an accepts list refuses it in presend's words, nothing signed", async () => {
    // The real server's challenge with its accepts list taken out on the way.
    const withoutAccepts: typeof fetch = async (input, init) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const answer = await stack.app.request(request);
      const required = answer.headers.get("payment-required");
      if (answer.status !== 402 || required === null) return answer;
      const { accepts: _, ...rest } = decodePaymentRequiredHeader(required);
      const headers = new Headers(answer.headers);
      headers.set("payment-required", encodePaymentRequiredHeader(rest as PaymentRequired));
      return new Response(answer.body, { status: 402, headers });
    };
    const paidBefore = paidRequests;
    const closed = await cli(["close"], {}, configDir, withoutAccepts);
    expect(closed.code).toBe(exitCodes.serverError);
    expect(closed.stderr).toBe(
      "presend: The server's payment challenge is not an x402 v2 one (PaymentRequired), so no refund was made. (charged: no)",
    );
    expect(closed.stderr).not.toMatch(/TypeError|Cannot read properties/);
    expect(paidRequests).toBe(paidBefore);
  });

  it("without PRESEND_CHANNEL_DEPOSIT a run deposits the client's default, ten checks, within the spend cap", async () => {
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-default-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-default-"));
    try {
      const env = {
        PRESEND_PRIVATE_KEY: walletKey,
        PRESEND_CHANNEL_DEPOSIT: "",
        PRESEND_SPEND_CAP: "",
      };
      const before = await stack.usdcBalance(wallet.address);
      const first = await cli(["check", target], env, ownDir);
      expect(first.code, first.stderr).toBe(exitCodes.ok);
      expect(first.stderr).toContain("over the payment channel");
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 10n * price);
      // --no-channel pays that one check on its own, from the wallet.
      const exact = await cli(
        ["check", devnetAccounts.sweptOnBase.address, "--no-channel"],
        env,
        ownDir,
      );
      expect(exact.code, exact.stderr).toBe(exitCodes.ok);
      expect(exact.stderr).toContain("settlement 0x");
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 11n * price);
      const closed = await cli(["close"], env, ownDir);
      expect(closed.code, closed.stderr).toBe(exitCodes.ok);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 2n * price);
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it("four runs started at once with one state directory: one deposit, each check paid once, the rest back on close", async () => {
    // Each run is its own client (as a process is) over the same state directory. The server
    // takes one request per channel at a time: without a lock the runs share, all but one were
    // refused channel_busy, each having signed a deposit of its own. Not held on a timer: each
    // unpaid challenge waits until all four runs have asked, so all four pay side by side.
    const price = routePrices.check;
    const walletKey = devnetPrivateKey(`lane-${lane.index}-cli-concurrent-payer`);
    const wallet = privateKeyToAccount(walletKey);
    await fund(wallet.address, 20n * price);
    const ownDir = mkdtempSync(join(tmpdir(), "presend-cli-concurrent-"));
    const targets = [
      target,
      devnetAccounts.sweptOnBase.address,
      devnetAccounts.receiveOnlyOnBase.address,
      devnetAccounts.delegatedOnBase.address,
    ];
    let asked = 0;
    let allAsked = () => {};
    const everyoneAsked = new Promise<void>((resolve) => {
      allAsked = resolve;
    });
    const run = async (address: string) => {
      const err: string[] = [];
      const code = await runCli(["check", address], {
        env: { PRESEND_URL: stack.publicUrl, PRESEND_PRIVATE_KEY: walletKey },
        stdout: () => {},
        stderr: (text) => err.push(text),
        configDir: ownDir,
        fetch: async (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          const challenge =
            request.method === "POST" &&
            !request.headers.has("payment-signature") &&
            !request.headers.has("sign-in-with-x");
          const answer = await stack.app.request(request);
          if (challenge && answer.status === 402) {
            asked += 1;
            if (asked === targets.length) allAsked();
            await everyoneAsked;
          }
          return answer;
        },
      });
      return { code, stderr: err.join("\n") };
    };
    try {
      const transactions = () => chain.getTransactionCount({ address: lane.facilitator.address });
      const txBefore = await transactions();
      const before = await stack.usdcBalance(wallet.address);
      const runs = await Promise.all(targets.map(run));
      const nonces = new Set<string>();
      for (const result of runs) {
        expect(result.code, result.stderr).toBe(exitCodes.ok);
        const receipt = /over the payment channel .*; receipt (0x[0-9a-f]{64})/.exec(result.stderr);
        expect(receipt, result.stderr).not.toBeNull();
        nonces.add(receipt?.[1] ?? "");
      }
      // One deposit (the default: ten checks) for the four, and four vouchers, none counted twice.
      expect(await transactions()).toBe(txBefore + 1);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 10n * price);
      expect(nonces.size).toBe(targets.length);
      // The close claims the four vouchers and returns the other six checks' worth.
      const closed = await cli(["close"], { PRESEND_PRIVATE_KEY: walletKey }, ownDir);
      expect(closed.code, closed.stderr).toBe(exitCodes.ok);
      expect(await stack.usdcBalance(wallet.address)).toBe(before - 4n * price);
      await stack.reconcile();
      for (const nonce of nonces) {
        expect(await stack.records.byAuthorization({ payer: wallet.address, nonce })).toMatchObject(
          { status: "settled", amount: String(price) },
        );
      }
    } finally {
      rmSync(ownDir, { recursive: true, force: true });
    }
  });

  it("refuses a deposit above the spend cap before any request", async () => {
    let requests = 0;
    const err: string[] = [];
    const result = await runCli(["check", target], {
      env: {
        PRESEND_URL: stack.publicUrl,
        PRESEND_PRIVATE_KEY: payerKey,
        PRESEND_CHANNEL_DEPOSIT: "0.20",
      },
      stdout: () => {},
      stderr: (text) => err.push(text),
      configDir,
      fetch: async () => {
        requests += 1;
        return new Response(null, { status: 500 });
      },
    });
    expect(result).toBe(exitCodes.usage);
    expect(err.join("\n")).toMatch(
      /PRESEND_CHANNEL_DEPOSIT \(\$0\.20\) is above the spend cap \(\$0\.10, the lower of PRESEND_SPEND_CAP and PRESEND_DAILY_CAP\)/,
    );
    expect(requests).toBe(0);
  });

  it.each([
    ["permit2", "permit2"],
    ["an unknown method", "erc20-approve"],
  ])(
    "refuses a channel offer asking for a %s deposit before signing anything",
    async (_, method) => {
      const transactions = () => chain.getTransactionCount({ address: lane.facilitator.address });
      const before = await transactions();
      // The attested exact offer is untouched; only the channel offer's transfer method changes.
      const tampering = async (input: RequestInfo | URL, init?: RequestInit) => {
        const answer = await stack.app.request(
          input instanceof Request ? input : new Request(input, init),
        );
        const header = answer.headers.get("payment-required");
        if (answer.status !== 402 || header === null) return answer;
        const required = decodePaymentRequiredHeader(header);
        const accepts = required.accepts.map((accept) =>
          accept.scheme === "batch-settlement"
            ? { ...accept, extra: { ...accept.extra, assetTransferMethod: method } }
            : accept,
        );
        const headers = new Headers(answer.headers);
        headers.set("PAYMENT-REQUIRED", encodePaymentRequiredHeader({ ...required, accepts }));
        return new Response(JSON.stringify({ ...required, accepts }), { status: 402, headers });
      };
      const out: string[] = [];
      // A payer of its own: no earlier check of the address is read again signed in.
      const tamperedKey = devnetPrivateKey(`lane-${lane.index}-cli-tampered-payer`);
      const code = await runCli(["check", target], {
        env: { PRESEND_URL: stack.publicUrl, PRESEND_PRIVATE_KEY: tamperedKey },
        stdout: () => {},
        stderr: (text) => out.push(text),
        configDir,
        fetch: tampering,
      });
      expect(code).toBe(exitCodes.refusedToPay);
      expect(out.join("\n")).toMatch(/presend deposits only by EIP-3009[\s\S]*charged: no/);
      expect(await transactions()).toBe(before);
    },
  );

  it("channelOptions: on by default with the client's deposit and the bound; off is no channel", () => {
    const bound = { configDir, durable: true, maxDeposit: 100_000n };
    const byDefault = channelOptions({}, bound);
    expect(byDefault?.deposit).toBeUndefined();
    expect(byDefault?.maxDeposit).toBe(100_000n);
    expect(channelOptions({ PRESEND_CHANNEL_DEPOSIT: "0.10" }, bound)?.deposit).toBe(100_000n);
    expect(channelOptions({ PRESEND_CHANNEL: "off" }, bound)).toBeNull();
    expect(() => channelOptions({ PRESEND_CHANNEL_DEPOSIT: "0.100001" }, bound)).toThrow(
      /above the spend cap/,
    );
    expect(() => channelOptions({ PRESEND_CHANNEL: "no" }, bound)).toThrow(/on or off/);
    expect(() => channelOptions({ PRESEND_CHANNEL_DEPOSIT: "0" }, bound)).toThrow(/more than 0/);
    // USDC has six decimals: a seventh is no amount it can hold.
    expect(() => channelOptions({ PRESEND_CHANNEL_DEPOSIT: "0.0000001" }, bound)).toThrow(
      /USD like 0\.10/,
    );
  });
});
