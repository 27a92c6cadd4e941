import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type ServerProcess, startServerProcess } from "./testing/startServerProcess";

// The fleet's Base RPC dies while channels are open and their claims are due: every failure the
// payment side reports (the claim runs, the settlement journal, the drain's flush) reaches the
// operator as one JSON line of the server's log, never as the RPC library's many-line text.
// The server runs in a process of its own so that everything it writes, stdout and stderr, is
// read; its Base RPC carries a key in its path, as a provider's does.
const { world, lane, fund } = sharedPaymentWorld();
const network = `eip155:${chains.base.id}` as const;
const price = routePrices.check;
const deposit = 5n * price;
const payerKey = devnetPrivateKey(`lane-${lane.index}-log-lines-payer`);
const sessionKey = devnetPrivateKey(`lane-${lane.index}-log-lines-session`);
const payer = privateKeyToAccount(payerKey);
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-log-lines-authorizer`);
const rpcKey = "presend-test-rpc-key-4f1c";
const body = { address: devnetAccounts.activeOnBase.address };
// Longer than an address (40 hex digits) or a transaction hash (64): call data, a signed
// transaction, an encoded payment.
const longHex = /0x[0-9a-fA-F]{65,}/;

describe("the payment side's reports with the Base RPC dead", { timeout: 180_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-log-lines-"));
  let rpc: FaultyRpc;
  let server: ServerProcess;
  afterAll(async () => {
    await server?.kill();
    await rpc?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("writes one JSON line per report, naming the event, without the RPC URL, call data or keys", async () => {
    await fund(payer.address, deposit);
    rpc = await startFaultyRpc(world.chains.base.rpcUrl);
    const paymentRpcUrl = `${rpc.url}/v2/${rpcKey}`;
    const serve = (settings: Record<string, string> = {}) =>
      startServerProcess({ world, dataDir, receiverAuthorizerKey, paymentRpcUrl, settings });
    const chainClient = devnetClient("base", world.chains.base.rpcUrl);
    const channelClient = new x402HTTPClient(
      new x402Client().register(
        network,
        new ChannelClientScheme(toClientEvmSigner(payer, chainClient), {
          voucherSigner: toClientEvmSigner(privateKeyToAccount(sessionKey)),
          depositStrategy: () => deposit,
        }),
      ),
    );
    const exact = new x402Client();
    registerExactEvmScheme(exact, { signer: toClientEvmSigner(payer) });
    const exactClient = new x402HTTPClient(exact);
    const pay = async (client: x402HTTPClient, scheme: string) => {
      const post = (headers: Record<string, string> = {}) =>
        fetch(`${server.url}/check`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
      const challenge = await post();
      const required = client.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      );
      const payload = await client.createPaymentPayload({
        ...required,
        accepts: required.accepts.filter((option) => option.scheme === scheme),
      });
      const answer = await post(client.encodePaymentSignatureHeader(payload));
      // The channel client keeps its cumulative total from the answer.
      await client
        .processPaymentResult(payload, (name) => answer.headers.get(name), answer.status)
        .catch(() => {});
      return answer;
    };
    // A channel opened and charged three times while Base answers, on a server that dies before
    // it claims any of it (its claim job would first run a minute after it started).
    server = await serve();
    for (let check = 1; check <= 3; check += 1) {
      expect((await pay(channelClient, "batch-settlement")).status, `check ${check}`).toBe(200);
    }
    await server.kill();
    const output = [server.output()];
    // Then Base goes: the next server starts on the same channels with its claims due.
    await rpc.close();
    server = await serve({ CHANNEL_CLAIM_INTERVAL_SECS: "1" });
    // An exact payment cannot be verified (nothing charged); a voucher is charged from the
    // channel's stored state and joins the claims that are due.
    expect((await pay(exactClient, "exact")).status).toBe(503);
    expect((await pay(channelClient, "batch-settlement")).status).toBe(200);
    // The claim job fails each second; the drain's flush at SIGTERM fails too.
    const deadline = Date.now() + 30_000;
    while (server.output().split('"channel job failed"').length < 4 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await server.stop();
    output.push(server.output());
    const lines = output
      .join("")
      .split("\n")
      .filter((line) => line !== "" && !line.startsWith("listening "));
    const entries = lines.map((line) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        parsed = undefined;
      }
      expect(parsed, `not one JSON object: ${line.slice(0, 200)}`).toBeTypeOf("object");
      return parsed as { msg?: unknown; error?: { message?: unknown } };
    });
    const events = entries.map((entry) => entry.msg);
    expect(events).toContain("channel job failed");
    expect(events).toContain("channel flush failed");
    for (const entry of entries) {
      expect(entry.msg).toBeTypeOf("string");
      if (entry.error !== undefined) expect(entry.error.message).toBeTypeOf("string");
    }
    const keys = [receiverAuthorizerKey, payerKey, sessionKey, lane.facilitator.privateKey];
    for (const line of lines) {
      expect(line).not.toContain(rpcKey);
      expect(line).not.toContain(paymentRpcUrl);
      expect(line).not.toContain("Request body");
      expect(line).not.toMatch(longHex);
      for (const key of keys) expect(line.toLowerCase()).not.toContain(key.slice(2).toLowerCase());
    }
  });
});
