import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../../facilitatorService/startFacilitatorService";
import { freePort } from "../../http/freePort";
import { exactPayments } from "../testing/exactPayments";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// A replica paying through `presend facilitator` (the fleet's shape) that stops before a paid
// route was ever asked: x402 has not read what the facilitator supports yet, and cannot.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const token = "synced-facilitator-token-0123456789abcdef";

describe("facilitatorSynced: x402's first read of the facilitator fails", () => {
  let port: number;
  let facilitator: FacilitatorService | null = null;
  let stack: PaidStack;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: devnetAccounts.activeOnBase.address,
    chain: "base",
  });
  const journal = join(mkdtempSync(join(tmpdir(), "presend-synced-")), "journal.json");
  const startFacilitator = async () => {
    facilitator = await startFacilitatorService({
      PORT: String(port),
      RPC_URLS_BASE: shared.world.chains.base.rpcUrl,
      FACILITATOR_PRIVATE_KEY: shared.world.accounts.facilitator.privateKey,
      FACILITATOR_AUTH_TOKEN: token,
      FACILITATOR_JOURNAL_FILE: journal,
      LOG_LEVEL: "silent",
    });
  };
  const stopFacilitator = async () => {
    await facilitator?.stop();
    facilitator = null;
  };
  beforeAll(async () => {
    port = await freePort();
    await startFacilitator();
    stack = await startPaidStack({
      world: shared.world,
      env: { FACILITATOR_URL: `http://127.0.0.1:${port}`, FACILITATOR_AUTH_TOKEN: token },
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
    await stopFacilitator();
  });

  it("the paid route answers 503 facilitator_unavailable, nothing charged; once it is back, a 402 and a paid report", async () => {
    await stopFacilitator();
    const unpaid = await post();
    expect(unpaid.status).toBe(503);
    expect((await unpaid.json()).error).toMatchObject({
      code: "facilitator_unavailable",
      message: expect.stringContaining("Nothing was charged"),
    });
    await startFacilitator();
    // signed() reads the 402 challenge first, then pays it.
    const { headers, nonce } = await signed();
    const paid = await post(headers);
    expect(paid.status).toBe(200);
    expect(await used(nonce)).toBe(true);
  }, 60_000);
});
