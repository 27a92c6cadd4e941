import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { decodePaymentResponseHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { createPublicClient, type Hex, http, parseAbiItem, parseEventLogs } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

const authorizationUsed = parseAbiItem(
  "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
);
const payers = Array.from({ length: 5 }, () => privateKeyToAccount(generatePrivateKey()));
const target = devnetAccounts.activeOnBase.address;
const perPayer = 10;

// Distinct valid payments sent at the same time, over HTTP with the official x402 fetch client:
// every one gets its report, settles once on chain, and is recorded and fetchable. Before the
// facilitator numbered its own transactions, 10 at once refused 40 of 50.
describe("50 concurrent paid checks from 5 payers", () => {
  let stack: PaidStack;
  let server: Listening;

  beforeAll(async () => {
    const port = await freePort();
    // A payment lane of the run's shared world: this file's facilitator and payTo are its own.
    const shared = sharedPaymentWorld();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
    for (const payer of payers) await shared.fund(payer.address, 1_000_000n);
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
  });

  it("gives 50 reports, makes 50 settlements on chain and 50 records, refuses none, all fetched back", async () => {
    const payTo = stack.world.accounts.payTo.address;
    const payToBefore = await stack.usdcBalance(payTo);
    const calls = payers.flatMap((payer) => {
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
      const pay = wrapFetchWithPayment(fetch, client);
      return Array.from({ length: perPayer }, () => ({ payer, pay }));
    });
    const answers = await Promise.all(
      calls.map(async ({ payer, pay }) => {
        const response = await pay(`${server.url}/check`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ address: target }),
        });
        return { payer, response, body: await response.json() };
      }),
    );

    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const settlements = answers.map((answer) =>
      decodePaymentResponseHeader(answer.response.headers.get("payment-response") ?? ""),
    );
    const txs = new Set(settlements.map((settlement) => settlement.transaction.toLowerCase()));
    expect(txs.size).toBe(50);

    // On chain: 50 successful transactions, each using one authorization of its payer.
    const base = createPublicClient({ transport: http(stack.world.chains.base.rpcUrl) });
    for (const [index, settlement] of settlements.entries()) {
      const receipt = await base.getTransactionReceipt({ hash: settlement.transaction as Hex });
      expect(receipt.status).toBe("success");
      const used = parseEventLogs({ abi: [authorizationUsed], logs: receipt.logs });
      expect(used.map((log) => log.args.authorizer.toLowerCase())).toEqual([
        answers[index]?.payer.address.toLowerCase(),
      ]);
    }
    expect(await stack.usdcBalance(payTo)).toBe(payToBefore + 50n * 10_000n);
    for (const payer of payers) {
      expect(await stack.usdcBalance(payer.address)).toBe(1_000_000n - BigInt(perPayer) * 10_000n);
    }

    // Recorded: 50 settled records, each fetched back by its payer with the exact report.
    expect(await stack.records.count("settled")).toBe(50);
    expect(await stack.records.count()).toBe(50);
    for (const [index, settlement] of settlements.entries()) {
      const answer = answers[index];
      if (answer === undefined) throw new Error("missing answer");
      const signature = await answer.payer.signMessage({
        message: receiptMessage(settlement.transaction),
      });
      const fetched = await fetch(
        `${server.url}/receipts/${settlement.transaction}?signature=${signature}`,
      );
      expect(fetched.status).toBe(200);
      expect((await fetched.json()).report).toEqual(answer.body);
    }
  });
});
