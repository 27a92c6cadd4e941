import { channelReceiptNonce } from "@presend/shared/api/channelReceiptNonce";
import { routePrices } from "@presend/shared/pricing/routePrices";
import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { toClientEvmSigner } from "@x402/evm";
import { extractPaymentIdentifier, PAYMENT_IDENTIFIER } from "@x402/extensions/payment-identifier";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import type { PinRecord } from "../PinStore";
import type { SentAuthorization } from "../PresendResult";
import { baseNetwork, baseUsdc } from "../policy/checkRequirement";
import { createSessionSpendCap, type SpendCap } from "../SpendCap";
import { createChannelPayer } from "./createChannelPayer";

// What the channel payer says about money when the server's answer is not the report: a boundary
// faked here (the answer); the real stack's answers are in the server's channel tests.
const price = routePrices.check;
const requirement: PaymentRequirements = {
  scheme: "batch-settlement",
  network: baseNetwork,
  asset: baseUsdc,
  amount: String(price),
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  maxTimeoutSeconds: 60,
  extra: {
    name: "USD Coin",
    version: "2",
    receiverAuthorizer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
    withdrawDelay: 900,
  },
};
const paymentRequired: PaymentRequired = {
  x402Version: 2,
  resource: { url: "http://api.test/check", description: "check", mimeType: "application/json" },
  accepts: [requirement],
  extensions: { [PAYMENT_IDENTIFIER]: { info: { required: false }, schema: {} } },
};
const pin = { jwk: {}, fingerprint: "f", pinnedAt: "", apiUrl: "" } as unknown as PinRecord;

function payer(
  spent: ReturnType<typeof createSessionSpendCap>,
  beforeSend?: (authorization: SentAuthorization) => Promise<void>,
) {
  return createChannelPayer({
    base: "http://api.test",
    payer: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
    channel: {
      voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
      deposit: 5n * price,
      ...(beforeSend && { beforeSend }),
    },
    spendCap: spent,
    emit: () => {},
  });
}

const refusal = (withSettlement: boolean) => {
  const headers = new Headers({
    "PAYMENT-REQUIRED": encodePaymentRequiredHeader({ ...paymentRequired, error: "refused" }),
  });
  if (withSettlement) {
    headers.set(
      "PAYMENT-RESPONSE",
      encodePaymentResponseHeader({
        success: false,
        errorReason: "settlement_failed",
        transaction: "",
        network: baseNetwork,
      }),
    );
  }
  return new Response("{}", { status: 402, headers });
};

describe("createChannelPayer: what a refused deposit says about money", () => {
  it("a deposit refused before settlement: nothing charged, the reservation freed", async () => {
    const cap = createSessionSpendCap(100n * price);
    const result = await payer(cap).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async () => refusal(false),
    });
    expect(result).toMatchObject({ type: "not_charged", charged: false, status: 402 });
    expect(cap.spent()).toBe(0n);
  });

  it("a deposit whose settlement was attempted: charged unknown, the deposit stays reserved", async () => {
    const cap = createSessionSpendCap(100n * price);
    const result = await payer(cap).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async () => refusal(true),
    });
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    expect(cap.spent()).toBe(5n * price);
  });

  it.each([
    ["the server's own 4xx", 400, "invalid_address", false],
    ["a 503 saying the payment record was unreadable", 503, "payment_record_unavailable", false],
    ["a 409 on the authorization (it may have paid)", 409, "authorization_used", "unknown"],
    ["a 503 that promises nothing", 503, "not_ready", "unknown"],
    ["a 500", 500, "internal_error", "unknown"],
  ] as const)(
    "%s: charged %s, the deposit freed only when nothing was",
    async (_name, status, code, charged) => {
      const cap = createSessionSpendCap(100n * price);
      const result = await payer(cap).pay({
        paymentRequired,
        requirement,
        route: "/check",
        pin,
        post: async () => Response.json({ error: { code, message: code } }, { status }),
      });
      expect(result).toMatchObject({ charged });
      expect(cap.spent()).toBe(charged === false ? 0n : 5n * price);
      // An open charge names where its report is fetched, the API's URL included.
      if (charged === "unknown") {
        expect(result.type === "unrecovered" && result.recover).toMatch(
          /^GET http:\/\/api\.test\//,
        );
      }
    },
  );

  it("the server's own 4xx says its code and message, as the exact payment does", async () => {
    const result = await payer(createSessionSpendCap(100n * price)).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async () =>
        Response.json(
          { error: { code: "chain_unavailable", message: "base cannot be read: no report." } },
          { status: 503 },
        ),
    });
    expect(result).toMatchObject({
      type: "not_charged",
      code: "chain_unavailable",
      status: 503,
      message: "base cannot be read: no report.",
    });
  });

  it.each([
    [403, "<html>Forbidden by the firewall</html>"],
    [404, "Not Found"],
    [413, ""],
  ])(
    "a %s page that is not the server's error (a proxy's): charged unknown, the deposit held",
    async (status, page) => {
      // A proxy may answer so after the voucher reached the server and was charged.
      const cap = createSessionSpendCap(100n * price);
      const result = await payer(cap).pay({
        paymentRequired,
        requirement,
        route: "/check",
        pin,
        post: async () => new Response(page, { status, headers: { "content-type": "text/html" } }),
      });
      expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
      expect(cap.spent()).toBe(5n * price);
      // Where to fetch the report, as a request that can be made: the API's URL included.
      expect(result.type === "unrecovered" && result.recover).toMatch(
        /^GET http:\/\/api\.test\/receipts\/0x[0-9a-fA-F]{40}\/0x[0-9a-f]{64}\?signature=/,
      );
    },
  );

  it("a deposit the cap cannot hold is never sent", async () => {
    let sent = 0;
    const result = await payer(createSessionSpendCap(2n * price)).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async () => {
        sent += 1;
        return refusal(false);
      },
    });
    expect(result).toMatchObject({ type: "refused", code: "cap_reached" });
    expect(sent).toBe(0);
  });
});

describe("createChannelPayer: the payment named before it is sent", () => {
  it("beforeSend is told the record nonce /receipts finds before the request leaves", async () => {
    const events: string[] = [];
    let told: SentAuthorization | null = null;
    let sentHeaders: Record<string, string> = {};
    const result = await payer(createSessionSpendCap(100n * price), async (authorization) => {
      told = authorization;
      events.push("told");
    }).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async (headers) => {
        events.push("sent");
        sentHeaders = headers;
        throw new TypeError("Failed to fetch");
      },
    });
    expect(events).toEqual(["told", "sent"]);
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    expect(told).toMatchObject({ amount: String(price), payTo: requirement.payTo });
    expect(told).toEqual(result.type === "unrecovered" ? result.authorization : null);
    // The nonce binds the voucher sent and this attempt's payment id, as the server records it.
    const sentPayload = decodePaymentSignatureHeader(sentHeaders["PAYMENT-SIGNATURE"] ?? "");
    const { voucher } = sentPayload.payload as {
      voucher: { channelId: `0x${string}`; maxClaimableAmount: string };
    };
    expect(told).toMatchObject({
      nonce: channelReceiptNonce(
        voucher.channelId,
        BigInt(voucher.maxClaimableAmount),
        extractPaymentIdentifier(sentPayload) ?? "",
      ),
    });
  });

  it("a beforeSend that throws sends nothing and charges nothing", async () => {
    const cap = createSessionSpendCap(100n * price);
    let sent = 0;
    const result = await payer(cap, async () => {
      throw new Error("storage full");
    }).pay({
      paymentRequired,
      requirement,
      route: "/check",
      pin,
      post: async () => {
        sent += 1;
        return refusal(false);
      },
    });
    expect(result).toMatchObject({ type: "not_charged", charged: false, code: "not_sent" });
    expect(sent).toBe(0);
    expect(cap.spent()).toBe(0n);
  });
});

describe("createChannelPayer: the wallet signs deposits only", () => {
  it("a Permit2 deposit the scheme would ask for is refused before the wallet sees it", async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const asked: string[] = [];
    let sent = 0;
    const result = await createChannelPayer({
      base: "http://api.test",
      payer: {
        address: account.address,
        signTypedData: (typedData) => {
          asked.push(typedData.primaryType);
          return account.signTypedData(typedData as never);
        },
      },
      channel: { voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())) },
      spendCap: createSessionSpendCap(100n * price),
      emit: () => {},
    }).pay({
      paymentRequired,
      requirement: {
        ...requirement,
        extra: { ...requirement.extra, assetTransferMethod: "permit2" },
      },
      route: "/check",
      pin,
      post: async () => {
        sent += 1;
        return refusal(false);
      },
    });
    expect(result).toMatchObject({ type: "not_charged", code: "signing_failed", charged: false });
    expect(result.type === "not_charged" && result.message).toMatch(/PermitWitnessTransferFrom/);
    expect(asked).toEqual([]);
    expect(sent).toBe(0);
  });
});

describe("createChannelPayer: the most one deposit may put in", () => {
  const bounded = (channel: { deposit?: bigint; maxDeposit: bigint }, spendCap?: SpendCap) => {
    const account = privateKeyToAccount(generatePrivateKey());
    const asked: bigint[] = [];
    const sent = { count: 0 };
    const channelPayer = createChannelPayer({
      base: "http://api.test",
      payer: {
        address: account.address,
        signTypedData: (typedData) => {
          asked.push(typedData.message.value as bigint);
          return account.signTypedData(typedData as never);
        },
      },
      channel: {
        voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
        ...channel,
      },
      ...(spendCap && { spendCap }),
      emit: () => {},
    });
    const pay = () =>
      channelPayer.pay({
        paymentRequired,
        requirement,
        route: "/check",
        pin,
        post: async () => {
          sent.count += 1;
          return refusal(false);
        },
      });
    return { asked, pay, sent };
  };

  it("puts in ten checks by default when the bound allows it", async () => {
    const { asked, pay } = bounded({ maxDeposit: 100n * price });
    expect(await pay()).toMatchObject({ type: "not_charged", status: 402 });
    expect(asked).toEqual([10n * price]);
  });

  it("signs a deposit of exactly the check's price when that is the bound", async () => {
    const { asked, pay } = bounded({ maxDeposit: price });
    expect(await pay()).toMatchObject({ type: "not_charged", status: 402 });
    expect(asked).toEqual([price]);
  });

  it("lowers the default deposit (ten checks) to the bound", async () => {
    const { asked, pay } = bounded({ maxDeposit: 4n * price });
    expect(await pay()).toMatchObject({ type: "not_charged", status: 402 });
    expect(asked).toEqual([4n * price]);
  });

  it("lowers the default deposit to what the spend cap has left, so a session whose channel was refunded pays on", async () => {
    const cap = createSessionSpendCap(10n * price);
    // Seven checks' worth held (what the last channel was known to have charged and kept).
    expect(await cap.reserve(7n * price)).toMatchObject({ type: "reserved" });
    const { asked, pay } = bounded({ maxDeposit: 10n * price }, cap);
    expect(await pay()).toMatchObject({ type: "not_charged", status: 402 });
    expect(asked).toEqual([3n * price]);
  });

  it("keeps a configured deposit as asked: the cap refuses it, named", async () => {
    const cap = createSessionSpendCap(10n * price);
    expect(await cap.reserve(7n * price)).toMatchObject({ type: "reserved" });
    const { asked, pay } = bounded({ deposit: 5n * price, maxDeposit: 10n * price }, cap);
    const result = await pay();
    expect(result).toMatchObject({ type: "refused", code: "cap_reached" });
    expect(result.type === "refused" && result.message).toMatch(/configure a smaller deposit/);
    expect(asked).toEqual([5n * price]);
  });

  it("says plainly when what the cap has left pays no check, nothing signed for more", async () => {
    const cap = createSessionSpendCap(10n * price);
    expect(await cap.reserve(10n * price - 1n)).toMatchObject({ type: "reserved" });
    const { pay } = bounded({ maxDeposit: 10n * price }, cap);
    const result = await pay();
    expect(result).toMatchObject({ type: "refused", code: "cap_reached", charged: false });
    expect(result.type === "refused" && result.message).toMatch(
      /what the spend cap has left does not pay this check; raise the cap or start a new session\.$/,
    );
  });

  it("passes on a cap that cannot read its own record as it says, with no advice on the cap or the deposit", async () => {
    const unreadable =
      "The daily spend ledger /home/a/.config/presend/spend.sqlite cannot be read or written (unable to open database file): nothing is paid until it can. Move it away.";
    // The CLI's daily ledger with a directory in its file's place: it can neither count nor hold.
    const cap: SpendCap = {
      reserve: async () => ({ type: "refused", code: "ledger_unreadable", message: unreadable }),
      available: async () => 0n,
    };
    const { asked, pay, sent } = bounded({ maxDeposit: 10n * price }, cap);
    expect(await pay()).toEqual({
      type: "refused",
      code: "ledger_unreadable",
      message: unreadable,
      charged: false,
    });
    // Signed (the deposit is reserved after its signature), never sent.
    expect(asked).toEqual([10n * price]);
    expect(sent.count).toBe(0);
  });

  it("names a configured deposit below the check's price as the one too small, not the bound", async () => {
    const { asked, pay } = bounded({ deposit: price / 2n, maxDeposit: 10n * price });
    const result = await pay();
    expect(result).toMatchObject({ type: "refused", code: "cap_reached", charged: false });
    expect(result.type === "refused" && result.message).toContain(
      "The configured channel deposit of $0.005 cannot pay this check ($0.01 is due); configure a larger deposit.",
    );
    expect(asked).toEqual([]);
  });

  it.each([
    ["a configured deposit above the bound", { deposit: 6n * price, maxDeposit: 5n * price }],
    [
      "a configured deposit one base unit above the bound",
      { deposit: 5n * price + 1n, maxDeposit: 5n * price },
    ],
    ["a bound below the check's price", { maxDeposit: price - 1n }],
  ])("refuses %s before the wallet signs", async (_, channel) => {
    const { asked, pay } = bounded(channel);
    const result = await pay();
    expect(result).toMatchObject({ type: "refused", code: "cap_reached", charged: false });
    expect(result.type === "refused" && result.message).toMatch(/deposit/);
    expect(asked).toEqual([]);
  });
});
