import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient, createSessionSpendCap } from "@presend/client";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { toClientEvmSigner } from "@x402/evm";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { channelOptions } from "./channelOptions";
import { exitCodes, runCli } from "./runCli";

// `presend check` with PRESEND_CHANNEL_DEPOSIT against the paid API offering channels, on a
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
  const cli = async (argv: string[], env: Record<string, string> = {}) => {
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
      configDir,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };

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

  it("refuses a malformed deposit before paying anything", async () => {
    const result = await cli(["check", target], { PRESEND_CHANNEL_DEPOSIT: "ten" });
    expect(result.code).toBe(exitCodes.usage);
    expect(result.stderr).toContain("PRESEND_CHANNEL_DEPOSIT");
  });

  it("without PRESEND_CHANNEL_DEPOSIT there is no channel", () => {
    expect(channelOptions({}, { configDir, durable: true })).toBeNull();
  });
});
