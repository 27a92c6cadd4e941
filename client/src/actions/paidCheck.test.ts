import { routePrices } from "@presend/shared/pricing/routePrices";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { createPresendConfig, type PresendClientOptions } from "../createPresendConfig";
import { exampleReport } from "../exampleReport";
import { createMemoryPinStore } from "../PinStore";
import { createSessionSpendCap } from "../SpendCap";
import { type FakePaidApiOptions, fakePaidApi } from "../testing/fakePaidApi";
import { type CheckInput, paidCheck } from "./paidCheck";

const now = new Date("2025-06-01T12:00:00Z");
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const price = routePrices.check;

/** The action bound to one config, as createPresendClient binds it. */
function checker(options: PresendClientOptions) {
  const config = createPresendConfig(options);
  return { check: (input: CheckInput) => paidCheck(config, "/check", input) };
}

async function paying(api: Partial<FakePaidApiOptions> = {}, cap = 10n * price) {
  const server = await fakePaidApi({
    payTo,
    report: exampleReport({ address, checkedAt: now }),
    now,
    ...api,
  });
  const spendCap = createSessionSpendCap(cap);
  const client = checker({
    url: "http://api.test",
    signer: privateKeyToAccount(generatePrivateKey()),
    pinStore: createMemoryPinStore(),
    spendCap,
    fetch: server.fetch,
    now: () => now,
  });
  return { server, spendCap, client };
}

describe("paidCheck: a retry of a payment whose outcome is not known yet", () => {
  it("is told the receipt of the payment its id made (PRESEND-RECEIPT), not one of its own authorization, which never paid", async () => {
    const { client, server, spendCap } = await paying({
      afterPayment: "unknown",
      receipts: "pending",
    });
    const paymentId = "undecided-payment-0001";
    const first = await client.check({ address, paymentId });
    expect(first).toMatchObject({ type: "unrecovered", charged: "unknown", paymentId });
    const nonce = first.type === "unrecovered" ? first.authorization.nonce : "none";
    // The retry carries a new authorization; the server answers from the id's record.
    const again = await client.check({ address, paymentId });
    expect(again).toMatchObject({
      type: "unrecovered",
      charged: "unknown",
      authorization: { nonce },
      paymentId,
    });
    expect(again.type === "unrecovered" && again.recover).toContain(`/${nonce}?signature=`);
    expect(server.payments()).toBe(1);
    expect(spendCap.spent()).toBe(price);
  });
});

describe("paidCheck: what a failed settlement says about the charge", () => {
  it("reports nothing charged when the 402's PAYMENT-RESPONSE says the settlement failed with no transaction, and frees the cap", async () => {
    const { client, spendCap } = await paying({ afterPayment: "settlement_failed" });
    const result = await client.check({ address });
    expect(result).toMatchObject({
      type: "not_charged",
      code: "settlement_failed",
      status: 402,
      charged: false,
    });
    expect(result.type === "not_charged" && result.message).toMatch(/settlement_failed/);
    expect(spendCap.spent()).toBe(0n);
  });

  it("keeps the charge unknown when the failed settlement names a transaction (settlement_pending may still land)", async () => {
    const { client, spendCap } = await paying({
      afterPayment: "settlement_pending",
      receipts: "pending",
    });
    const result = await client.check({ address });
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    expect(spendCap.spent()).toBe(price);
  });

  it("keeps the charge unknown for a 402 whose PAYMENT-RESPONSE cannot be read", async () => {
    const { server } = await paying({
      afterPayment: "settlement_failed",
      receipts: "pending",
    });
    const garbled: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      if (!answer.headers.has("payment-response")) return answer;
      const headers = new Headers(answer.headers);
      headers.set("PAYMENT-RESPONSE", "not base64 at all!");
      return new Response(await answer.text(), { status: answer.status, headers });
    };
    const other = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: garbled,
      now: () => now,
    });
    expect(await other.check({ address })).toMatchObject({
      type: "unrecovered",
      charged: "unknown",
    });
  });
});

describe("paidCheck: the spend cap counts each charged payment once", () => {
  it("does not count a retry answered from the payment record (same payment id) as spent again", async () => {
    const { client, spendCap, server } = await paying({}, 2n * price);
    const first = await client.check({ address, paymentId: "retry-of-one-check-0001" });
    const again = await client.check({ address, paymentId: "retry-of-one-check-0001" });
    expect(first).toMatchObject({ type: "report", charged: true });
    expect(again).toMatchObject({ type: "report", charged: true });
    expect(again.type === "report" && again.settlement.transaction).toBe(
      first.type === "report" && first.settlement.transaction,
    );
    expect(server.payments()).toBe(1);
    expect(spendCap.spent()).toBe(price);
    // The room left is one more check, not zero.
    expect(await client.check({ address })).toMatchObject({ type: "report" });
    expect(spendCap.spent()).toBe(2n * price);
  });

  it("counts two checks with their own payment ids twice", async () => {
    const { client, spendCap, server } = await paying({}, 2n * price);
    await client.check({ address, paymentId: "first-check-of-two-0001" });
    await client.check({ address, paymentId: "second-check-of-two-001" });
    expect(server.payments()).toBe(2);
    expect(spendCap.spent()).toBe(2n * price);
    expect(await client.check({ address })).toMatchObject({ type: "refused", code: "cap_reached" });
  });
});

describe("paidCheck: the sender (from)", () => {
  const from = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

  it("sends from in the check's body", async () => {
    const { server } = await paying();
    const bodies: unknown[] = [];
    const spy = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) => {
        if (typeof init?.body === "string") bodies.push(JSON.parse(init.body));
        return server.fetch(input, init);
      },
      now: () => now,
    });
    expect(await spy.check({ address, chain: "base", from })).toMatchObject({ type: "report" });
    expect(bodies[0]).toEqual({ address, chain: "base", from });
  });

  it.each([
    ["a malformed from", "0x1234", "invalid_from"],
    ["from equal to the address", address.toLowerCase(), "from_equals_address"],
  ])("refuses %s before anything is signed, charged: no", async (_name, bad, code) => {
    const { client, server } = await paying();
    expect(await client.check({ address, from: bad })).toMatchObject({
      type: "refused",
      code,
      charged: false,
    });
    expect(server.payments()).toBe(0);
  });
});

describe("paidCheck: what is refused before anything is signed", () => {
  it("a challenge that redirects is not followed, charged: no", async () => {
    const seen: Array<RequestRedirect | undefined> = [];
    const { check } = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: async (_input, init) => {
        seen.push(init?.redirect);
        return new Response(null, { status: 307, headers: { location: "http://evil.test/check" } });
      },
    });
    expect(await check({ address })).toMatchObject({
      type: "refused",
      code: "redirect",
      charged: false,
      paymentId: null,
    });
    expect(seen).toEqual(["manual"]);
  });

  it("an unreachable server: not charged, nothing signed", async () => {
    const { check } = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: async () => {
        throw new TypeError("fetch failed");
      },
    });
    expect(await check({ address })).toMatchObject({
      type: "not_charged",
      code: "unreachable",
      status: null,
    });
  });

  it("a challenge answered with an error instead of a 402: not charged, with the server's status and code", async () => {
    const { check } = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: async () =>
        Response.json(
          { error: { code: "internal_error", message: "Something broke." } },
          { status: 500 },
        ),
    });
    expect(await check({ address })).toMatchObject({
      type: "not_charged",
      code: "internal_error",
      status: 500,
      charged: false,
    });
  });

  it.each([
    ["no accepts list", { x402Version: 2, resource: { url: "http://api.test/check" } }],
    ["not an object", "pay me"],
  ])(
    "a 402 whose challenge is not an x402 v2 one (%s): refused, not thrown, nothing signed",
    async (_what, challenge) => {
      const { check } = checker({
        url: "http://api.test",
        signer: privateKeyToAccount(generatePrivateKey()),
        pinStore: createMemoryPinStore(),
        fetch: async () =>
          new Response("{}", {
            status: 402,
            headers: {
              "content-type": "application/json",
              "payment-required": Buffer.from(JSON.stringify(challenge)).toString("base64"),
            },
          }),
      });
      expect(await check({ address })).toMatchObject({
        type: "refused",
        code: "unexpected_challenge",
        charged: false,
        paymentId: null,
      });
    },
  );

  it("without a paying key: refused after the policy, the key pinned, nothing paid", async () => {
    const server = await fakePaidApi({
      payTo,
      report: exampleReport({ address, checkedAt: now }),
      now,
    });
    const pinStore = createMemoryPinStore();
    const { check } = checker({
      url: "http://api.test",
      pinStore,
      fetch: server.fetch,
      now: () => now,
    });
    expect(await check({ address })).toMatchObject({ type: "refused", code: "no_signer" });
    expect((await pinStore.get("http://api.test"))?.fingerprint).toBe(server.fingerprint);
    expect(server.payments()).toBe(0);
  });

  it("a malformed payment id is refused: the server would ignore it and charge a retry again", async () => {
    const { client, server } = await paying();
    expect(await client.check({ address, paymentId: "short" })).toMatchObject({
      type: "refused",
      code: "invalid_payment_id",
    });
    // Long enough, but with characters the server does not read as an id.
    expect(await client.check({ address, paymentId: "pay id with spaces!" })).toMatchObject({
      type: "refused",
      code: "invalid_payment_id",
    });
    expect(server.requests).toHaveLength(0);
  });

  it("returns the payment id it sent, for a retry charged once", async () => {
    const { client } = await paying();
    const result = await client.check({ address });
    expect(result).toMatchObject({ type: "report", paymentId: expect.stringMatching(/^pay_/) });
  });
});

describe("paidCheck: a signed report is trusted only for what was asked", () => {
  // The signature binds a report to a settlement, not to the request: a man in the middle can
  // answer with any signed report of an earlier check (its own PAYMENT-RESPONSE and receipt
  // included), and the server itself may be wrong. The verdict of another address must never
  // pass for this one's.
  const other = "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7";
  const sender = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

  it.each([
    [
      "another address",
      { address: other },
      /about 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045, not the address asked/,
    ],
    [
      "another chain",
      { address, chain: "ethereum" as const },
      /about base, not the chain asked \(ethereum\)/,
    ],
    [
      "another sender",
      { address, from: sender },
      /made for the sender 0x9fB3.*, not the one asked \(0x7099/,
    ],
  ])(
    "a signed report about %s is forged, not shown, charged: yes",
    async (_name, input, message) => {
      // The server names the sender asked in its report; this one names another.
      const { client, server } = await paying({
        report: { ...exampleReport({ address, checkedAt: now }), from: other },
      });
      const result = await client.check(input);
      expect(result).toMatchObject({ type: "forged", charged: true });
      expect(result.type === "forged" && result.message).toMatch(message);
      expect(server.payments()).toBe(1);
    },
  );

  it("a report fetched again through /receipts about another address is forged too, charged: yes", async () => {
    // The paid answer is lost (502 settlement_unknown) and the stored report recovered is
    // another check's: recovery does not make it this check's report.
    const { client, server } = await paying({ afterPayment: "unknown" });
    const result = await client.check({ address: other });
    expect(result).toMatchObject({ type: "forged", charged: true });
    expect(result.type === "forged" && result.message).toMatch(/not the address asked/);
    expect(server.requests.some(({ url }) => url.includes("/receipts/"))).toBe(true);
  });

  it("takes the address asked in any case", async () => {
    const { client } = await paying();
    expect(await client.check({ address: address.toLowerCase() })).toMatchObject({
      type: "report",
    });
  });
});

describe("paidCheck: a settlement is this payment's only when it names this payer", () => {
  it("an earlier 200 of another payer replayed for this payment is no report of it: charged unknown, fetched by its own authorization", async () => {
    const server = await fakePaidApi({
      payTo,
      report: exampleReport({ address, checkedAt: now }),
      now,
    });
    const client = (fetch: typeof globalThis.fetch) =>
      checker({
        url: "http://api.test",
        signer: privateKeyToAccount(generatePrivateKey()),
        pinStore: createMemoryPinStore(),
        fetch,
        now: () => now,
      });
    // Another payer's paid answer of the same check, kept by a man in the middle.
    let kept: { body: string; headers: Headers } | null = null;
    const recording: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (headers["PAYMENT-SIGNATURE"] && answer.status === 200) {
        kept = { body: await answer.clone().text(), headers: answer.headers };
      }
      return answer;
    };
    expect(await client(recording).check({ address })).toMatchObject({ type: "report" });
    // This payer's payment is held back; the kept answer is replayed in its place.
    const replaying: typeof fetch = async (input, init) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (headers["PAYMENT-SIGNATURE"] && kept !== null) {
        return new Response(kept.body, { status: 200, headers: kept.headers });
      }
      return server.fetch(input, init);
    };
    const result = await client(replaying).check({ address });
    expect(result).toMatchObject({ type: "unrecovered", charged: "unknown", settlement: null });
    expect(server.payments()).toBe(1);
  });
});

describe("paidCheck: an answer that never ends", () => {
  it("a paid 200 whose body never ends: the settlement said at once, then where the report is kept once its time is up", async () => {
    const server = await fakePaidApi({
      payTo,
      report: exampleReport({ address, checkedAt: now }),
      now,
    });
    // The real answer's headers (its settlement), then a body that never ends.
    const endless: typeof fetch = async (input, init) => {
      const answer = await server.fetch(input, init);
      const headers = (init?.headers ?? {}) as Record<string, string>;
      if (!headers["PAYMENT-SIGNATURE"] || answer.status !== 200) return answer;
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"address":'));
        },
      });
      return new Response(body, { status: 200, headers: answer.headers });
    };
    const events: string[] = [];
    const { check } = checker({
      url: "http://api.test",
      signer: privateKeyToAccount(generatePrivateKey()),
      pinStore: createMemoryPinStore(),
      fetch: endless,
      now: () => now,
      timeoutMs: 300,
      onEvent: (event) => events.push(event.type),
    });
    const result = await check({ address });
    // Charged for sure (the settlement was read before the body), and where the report is kept.
    expect(result).toMatchObject({
      type: "unrecovered",
      charged: true,
      settlement: { transaction: server.transaction },
    });
    expect(result.type === "unrecovered" && result.recover).toContain(
      `GET http://api.test/receipts/${server.transaction}`,
    );
    expect(events).toEqual(["pinned", "verified", "paying", "settled", "recovering"]);
  }, 10_000);
});
