import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { ReportSchema } from "@presend/shared/api/report";
import { decodePaymentResponseHeader, wrapAxiosWithPayment, x402Client } from "@x402/axios";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import axios from "axios";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// The official axios client over real HTTP: it reads the 402, pays with an EIP-3009
// authorization and gets the report, as any x402 v2 buyer using axios would.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);

describe("@x402/axios (wrapAxiosWithPayment) against the listening API", () => {
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

  it("pays /check once and gets the report with its settlement", async () => {
    const client = new x402Client();
    registerExactEvmScheme(client as never, { signer: toClientEvmSigner(payer) });
    const api = wrapAxiosWithPayment(axios.create({ baseURL: server.url }), client);
    const before = await stack.usdcBalance(payer.address);
    const response = await api.post("/check", { address: devnetAccounts.activeOnBase.address });
    expect(response.status).toBe(200);
    expect(ReportSchema.parse(response.data).address).toBe(devnetAccounts.activeOnBase.address);
    const settlement = decodePaymentResponseHeader(response.headers["payment-response"]);
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453" });
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("gets the 400, not a payment, for a bad address", async () => {
    const client = new x402Client();
    registerExactEvmScheme(client as never, { signer: toClientEvmSigner(payer) });
    const api = wrapAxiosWithPayment(axios.create({ baseURL: server.url }), client);
    const before = await stack.usdcBalance(payer.address);
    const failure = await api.post("/check", { address: "0x1234" }).catch((error) => error);
    expect(failure.response?.status).toBe(400);
    expect(failure.response?.data).toMatchObject({ error: { code: "invalid_address" } });
    expect(await stack.usdcBalance(payer.address)).toBe(before);
  });
});
