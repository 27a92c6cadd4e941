import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { toClientEvmSigner } from "@x402/evm";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../../facilitatorService/startFacilitatorService";
import { type PaidStack, startPaidStack } from "../testing/startPaidStack";

// A replica offering channels with `presend facilitator` as its facilitator (the fleet's shape),
// on a payment lane of the shared world: the deposit, the claim and the sweep go over HTTP with
// the fleet's token, and every voucher's record is settled from the claim.
const { world, lane, fund } = sharedPaymentWorld();
const price = routePrices.check;
const wallet = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-remote-channel-payer`));
const session = privateKeyToAccount(devnetPrivateKey(`lane-${lane.index}-remote-session`));
const token = "channels-remote-facilitator-token-0123456789";

describe("channels through presend facilitator", () => {
  let facilitator: FacilitatorService;
  let stack: PaidStack;

  beforeAll(async () => {
    facilitator = await startFacilitatorService({
      PORT: "0",
      RPC_URLS_BASE: world.chains.base.rpcUrl,
      FACILITATOR_PRIVATE_KEY: lane.facilitator.privateKey,
      FACILITATOR_AUTH_TOKEN: token,
      LOG_LEVEL: "silent",
      // Its own journal: the default one (in the working directory) is shared by every test.
      FACILITATOR_JOURNAL_FILE: join(
        mkdtempSync(join(tmpdir(), "presend-journal-")),
        "journal.json",
      ),
    });
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey: devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`),
      env: { FACILITATOR_URL: facilitator.url, FACILITATOR_AUTH_TOKEN: token },
    });
    await fund(wallet.address, 10n * price);
  });
  afterAll(async () => {
    await stack?.stop();
    await facilitator?.stop();
  });

  it("deposits, pays vouchers, claims and settles through the remote facilitator", async () => {
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: wallet,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
      channel: { voucherSigner: toClientEvmSigner(session), deposit: 5n * price },
    });
    for (let check = 1; check <= 3; check += 1) {
      expect(await client.check({ address: devnetAccounts.activeOnBase.address })).toMatchObject({
        type: "report",
        settlement: { viaChannel: true },
      });
    }
    expect(stack.payments.facilitatorAddress).toBeNull();
    const payToBefore = await stack.usdcBalance(lane.payTo.address);
    const claims = await stack.payments.channels?.manager().claim();
    expect(claims).toHaveLength(1);
    expect(await stack.records.count("settled")).toBe(3);
    await stack.payments.channels?.manager().settle();
    expect(await stack.usdcBalance(lane.payTo.address)).toBe(payToBefore + 3n * price);
  });
});
