import { decodePaymentSignatureHeader } from "@x402/core/http";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { paidCheck } from "../actions/paidCheck";
import { createPresendConfig, type PresendConfig } from "../createPresendConfig";
import { exampleReport } from "../exampleReport";
import { createMemoryPinStore, type PinRecord } from "../PinStore";
import type { ClientEvent, PaidResult } from "../PresendResult";
import { type FakePaidApiOptions, fakePaidApi } from "./fakePaidApi";

export const paidOnceNow = new Date("2025-06-01T12:00:00Z");

/**
 * For the tests of recovery and receipts: one check paid against the stand-in API, with what a
 * later lookup needs (the config that paid, the key it pinned, the payer and the nonce of the
 * authorization it sent, the events it emitted).
 * @example const { config, payer, nonce, pin } = await paidOnce({ receipts: "pending" });
 */
export async function paidOnce(api: Partial<FakePaidApiOptions> = {}): Promise<{
  config: PresendConfig;
  result: PaidResult<unknown>;
  pin: PinRecord;
  payer: ReturnType<typeof privateKeyToAccount>;
  nonce: Hex;
  events: ClientEvent[];
  server: Awaited<ReturnType<typeof fakePaidApi>>;
}> {
  const server = await fakePaidApi({
    payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    report: exampleReport({
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      checkedAt: paidOnceNow,
    }),
    now: paidOnceNow,
    ...api,
  });
  const payer = privateKeyToAccount(`0x${"66".repeat(32)}`);
  const events: ClientEvent[] = [];
  const config = createPresendConfig({
    url: "http://api.test",
    signer: payer,
    pinStore: createMemoryPinStore(),
    fetch: server.fetch,
    now: () => paidOnceNow,
    onEvent: (event) => events.push(event),
  });
  const result = await paidCheck(config, "/check", {
    address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  });
  const header = server.requests.find((request) => request.headers["PAYMENT-SIGNATURE"]);
  const pin = await config.pinStore.get(config.origin);
  if (header === undefined || pin === undefined)
    throw new Error(`nothing was paid: ${result.type}`);
  const payload = decodePaymentSignatureHeader(header.headers["PAYMENT-SIGNATURE"] ?? "");
  const { authorization } = payload.payload as { authorization: { nonce: Hex } };
  return { config, result, pin, payer, nonce: authorization.nonce, events, server };
}
