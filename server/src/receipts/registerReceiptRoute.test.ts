import { connect } from "node:net";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains } from "@presend/shared/chains/chains";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import { createPublicClient, type Hex, http, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { settleGraceSeconds } from "../payments/records/reconcilePayments";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const authorizationUsed = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);

/** Sends one raw HTTP request and closes the socket at once: the client never reads a byte. */
function sendAndDrop(url: string, path: string, headers: Record<string, string>, body: string) {
  const { hostname, port } = new URL(url);
  return new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        `Host: ${hostname}:${port}`,
        `Content-Length: ${Buffer.byteLength(body)}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        "",
        body,
      ];
      socket.end(lines.join("\r\n"), () => {
        socket.destroy();
        resolve();
      });
    });
    socket.on("error", reject);
  });
}

async function poll<T>(read: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("timed out");
}

describe("GET /receipts/{tx}: a settled payment whose response was lost", () => {
  let stack: PaidStack;
  let server: Listening;

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("gives the payer the report again after the connection dropped post-settlement", async () => {
    const challenge = await fetch(`${server.url}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: target }),
    });
    const required = decodePaymentRequiredHeader(challenge.headers.get("payment-required") ?? "");
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const payload = await client.createPaymentPayload(required);
    const nonce = (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    const before = await stack.usdcBalance(payer.address);

    await sendAndDrop(
      server.url,
      "/check",
      { "Content-Type": "application/json", "X-Payment": encodePaymentSignatureHeader(payload) },
      JSON.stringify({ address: target }),
    );

    // The payer finds its settlement on chain by its own authorization nonce.
    const base = createPublicClient({ transport: http(stack.world.chains.base.rpcUrl) });
    const tx = await poll(async () => {
      const logs = await base.getLogs({
        address: chains.base.usdc.address,
        event: authorizationUsed,
        args: { authorizer: payer.address, nonce },
        fromBlock: 0n,
      });
      return logs[0]?.transactionHash ?? undefined;
    });
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);

    const signature = await payer.signMessage({ message: receiptMessage(tx) });
    const receipt = await poll(async () => {
      const response = await fetch(`${server.url}/receipts/${tx}?signature=${signature}`);
      return response.status === 200 ? response.json() : undefined;
    });
    expect(receipt).toMatchObject({ tx, route: "/check", amount: "10000", payer: payer.address });
    expect(receipt.report).toMatchObject({
      address: target,
      verdict: { level: expect.any(String) },
    });
  });

  it("refuses anyone but the payer (403) and answers 404 for an unknown transaction", async () => {
    const tx = `0x${"ee".repeat(32)}`;
    const key = { payer: payer.address, nonce: `0x${"ab".repeat(32)}` };
    await stack.records.begin({
      ...key,
      network: "eip155:8453",
      asset: chains.base.usdc.address,
      payTo: stack.world.accounts.payTo.address,
      route: "/deep",
      amount: "50000",
      validBefore: Math.floor(Date.now() / 1000) + 60,
      report: { address: target },
    });
    await stack.records.markSettled(key, tx);
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await stranger.signMessage({ message: receiptMessage(tx) });
    const wrongMessage = await payer.signMessage({
      message: `presend receipt ${"0x".padEnd(66, "1")}`,
    });
    for (const query of [
      "",
      `?signature=${forged}`,
      `?signature=${wrongMessage}`,
      "?signature=0x1234",
      // Signature-shaped but no signature at all: recovering a key from it throws, and a check
      // that throws proves nothing.
      `?signature=0x${"00".repeat(65)}`,
      `?signature=0x${"ff".repeat(65)}`,
    ]) {
      const response = await stack.app.request(`/receipts/${tx}${query}`);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: "receipt_forbidden" } });
    }
    const good = await payer.signMessage({ message: receiptMessage(tx) });
    expect(
      (
        await stack.app.request(
          `/receipts/${tx.toUpperCase().replace("0X", "0x")}?signature=${good}`,
        )
      ).status,
    ).toBe(200);
    const unknown = await stack.app.request(`/receipts/0x${"12".repeat(32)}?signature=${good}`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: "receipt_not_found" } });
    // A path that is no transaction hash is not echoed back (a long or control-laden one).
    for (const path of [
      `/receipts/0x${"a".repeat(9000)}`,
      "/receipts/%00abc",
      "/receipts/x/y%00",
    ]) {
      const notFound = await stack.app.request(path);
      expect(notFound.status).toBe(404);
      const text = await notFound.text();
      expect(text.length).toBeLessThan(400);
      expect(text).not.toContain("\\u0000");
    }
    // A signature given twice is a clear 400, and the OpenAPI document says so.
    const twice = await stack.app.request(`/receipts/${tx}?signature=${good}&signature=${good}`);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toEqual({
      error: { code: "invalid_body", message: "Give signature once: one value is asked." },
    });
    const document = await (await stack.app.request("/openapi.json")).json();
    expect(Object.keys(document.paths["/receipts/{tx}"].get.responses)).toContain("400");
  });
  it("decides an open record past the time it promised from the chain, instead of repeating the promise", async () => {
    // A payer's unknown outcome whose decidedBy has passed, never sent on chain: the chain
    // proves it unused after its validBefore, so the payer learns it was never charged.
    const owner = privateKeyToAccount(generatePrivateKey());
    const key = { payer: owner.address, nonce: `0x${"cd".repeat(32)}` };
    const chainNow = Number(
      (await createPublicClient({ transport: http(stack.world.chains.base.rpcUrl) }).getBlock())
        .timestamp,
    );
    await stack.records.begin({
      ...key,
      network: "eip155:8453",
      asset: chains.base.usdc.address,
      payTo: stack.world.accounts.payTo.address,
      route: "/check",
      amount: "10000",
      validBefore: Math.min(chainNow, Math.floor(Date.now() / 1000)) - 600,
      report: { address: target },
    });
    await stack.records.markUnknown(key, null);
    const signature = await owner.signMessage({ message: receiptMessage(key.nonce) });
    const path = `/receipts/${owner.address.toLowerCase()}/${key.nonce}`;
    // Anyone else is refused before the chain is asked: the record stays as it was.
    const forged = await privateKeyToAccount(generatePrivateKey()).signMessage({
      message: receiptMessage(key.nonce),
    });
    expect((await stack.app.request(`${path}?signature=${forged}`)).status).toBe(403);
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "unknown" });

    const response = await stack.app.request(`${path}?signature=${signature}`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({
      error: { code: "receipt_not_found", message: expect.stringContaining("nothing was charged") },
    });
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "failed" });
  });
  it("answers an open record still within its time 409 settlement_unknown, saying by when it is known", async () => {
    const owner = privateKeyToAccount(generatePrivateKey());
    const key = { payer: owner.address, nonce: `0x${"ef".repeat(32)}` };
    const chainNow = Number(
      (await createPublicClient({ transport: http(stack.world.chains.base.rpcUrl) }).getBlock())
        .timestamp,
    );
    // Valid for an hour more by either clock: nothing can decide it yet.
    const validBefore = Math.max(chainNow, Math.floor(Date.now() / 1000)) + 3_600;
    await stack.records.begin({
      ...key,
      network: "eip155:8453",
      asset: chains.base.usdc.address,
      payTo: stack.world.accounts.payTo.address,
      route: "/check",
      amount: "10000",
      validBefore,
      report: { address: target },
    });
    await stack.records.markUnknown(key, null);
    const signature = await owner.signMessage({ message: receiptMessage(key.nonce) });
    const response = await stack.app.request(
      `/receipts/${owner.address.toLowerCase()}/${key.nonce}?signature=${signature}`,
    );
    expect(response.status).toBe(409);
    const by = new Date((validBefore + settleGraceSeconds) * 1000).toISOString();
    expect(await response.json()).toMatchObject({
      error: { code: "settlement_unknown", message: expect.stringContaining(`by ${by}`) },
    });
    expect(await stack.records.byAuthorization(key)).toMatchObject({ status: "unknown" });
  });
});
