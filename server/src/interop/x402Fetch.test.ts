import { existsSync } from "node:fs";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { DeepReportSchema } from "@presend/shared/api/report";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { PaymentRequiredV2Schema } from "@x402/core/schemas";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { facilitatorJournalFile } from "../composeServer";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { fileSenderJournal } from "../payments/facilitator/fileSenderJournal";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// The official fetch client over real HTTP (the global fetch, a real socket).
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);

describe("@x402/fetch (wrapFetchWithPayment) against the listening API", () => {
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

  it("gets a 402 that @x402/core's own v2 schema accepts, in the header and the body", async () => {
    const response = await fetch(`${server.url}/deep`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
    });
    expect(response.status).toBe(402);
    const header = decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "");
    expect(PaymentRequiredV2Schema.safeParse(header).success).toBe(true);
    expect(PaymentRequiredV2Schema.safeParse(await response.json()).success).toBe(true);
    // Every extension entry has the v2 shape: info and its JSON Schema.
    expect(Object.keys(header.extensions ?? {}).sort()).toEqual([
      "bazaar",
      "offer-receipt",
      "payment-identifier",
      "sign-in-with-x",
      "x-presend-attestation",
    ]);
    for (const entry of Object.values(header.extensions ?? {})) {
      expect(entry).toEqual(
        expect.objectContaining({ info: expect.any(Object), schema: expect.any(Object) }),
      );
    }
  });

  it("pays /deep once and gets the five-chain report", async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const before = await stack.usdcBalance(payer.address);
    const response = await wrapFetchWithPayment(fetch, client)(`${server.url}/deep`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
    });
    expect(response.status).toBe(200);
    expect(DeepReportSchema.parse(await response.json()).others).toHaveLength(4);
    const settlement = decodePaymentResponseHeader(response.headers.get("payment-response") ?? "");
    expect(settlement).toMatchObject({ success: true, payer: payer.address });
    expect(await stack.usdcBalance(payer.address)).toBe(before - 50_000n);
    // The in-process facilitator journals what it sends, in DATA_DIR, before it broadcasts (a
    // restart sends what is still unmined again); its watcher drops the entry once mined, so
    // the file is there and reads as a journal whether or not the entry still is.
    const journalFile = join(stack.dataDir, facilitatorJournalFile);
    expect(existsSync(journalFile)).toBe(true);
    const journaled = await fileSenderJournal(journalFile).read();
    expect(journaled.every((entry) => entry.hashes.includes(settlement.transaction))).toBe(true);
  });
});
