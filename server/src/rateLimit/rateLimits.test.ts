import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { Hono } from "hono";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { type LocalRedis, startRedis } from "../localServices/startRedis";
import { createMetrics } from "../observability/createMetrics";
import { maxPaymentHeaderBytes } from "../payments/intake/paymentHeaderOf";
import { openRedis } from "../redis/openRedis";
import { type RateLimitSettings, rateLimits } from "./rateLimits";

const settings: RateLimitSettings = {
  freeLimit: 3,
  challengeLimit: 2,
  windowMs: 60_000,
  trustProxy: false,
};

function appWith(limits: ReturnType<typeof rateLimits>) {
  const app = new Hono();
  app.use("*", limits);
  app.get("/validate", (c) => c.json({ ok: true }));
  app.get("/livez", (c) => c.json({ ok: true }));
  // Stands in for a paid route: the good payment is paid, anything else gets a 402.
  app.post("/check", (c) =>
    c.json({}, c.req.header("payment-signature") === goodPayment ? 200 : 402),
  );
  return app;
}

/** A well-formed x402 payment header (an EIP-3009 authorization), as a client sends it. */
function paymentHeader(nonceByte: string) {
  const authorization = {
    from: "0x1111111111111111111111111111111111111111",
    to: "0x2222222222222222222222222222222222222222",
    value: "10000",
    validAfter: "0",
    validBefore: "1900000000",
    nonce: `0x${nonceByte.repeat(32)}`,
  };
  return encodePaymentSignatureHeader({
    x402Version: 2,
    payload: { authorization, signature: "0x00" },
  } as unknown as PaymentPayload);
}
const goodPayment = paymentHeader("ab");
const refusedPayment = paymentHeader("ee");

/** GET or POST from a given loopback address (its own client). */
function client(localAddress: string) {
  const dispatcher = new Agent({ localAddress });
  return (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
    undiciFetch(url, { ...init, dispatcher });
}

async function statuses(
  send: () => Promise<{ status: number; body: { cancel(): Promise<void> } | null }>,
  n: number,
) {
  const seen: number[] = [];
  for (let i = 0; i < n; i++) {
    const response = await send();
    seen.push(response.status);
    await response.body?.cancel();
  }
  return seen;
}

describe("rateLimits (in memory)", () => {
  let server: DrainingServer;
  const metrics = createMetrics();
  beforeAll(async () => {
    server = await serveWithDrain(appWith(rateLimits({ settings, metrics })), { port: 0 });
  });
  afterAll(() => server?.drain(1_000));

  it("limits each client on its own budget: 429, the JSON error contract and Retry-After", async () => {
    const first = client("127.0.1.1");
    // The draft-7 headers, on every answer: the budget and what is left of it.
    const answered = await first(`${server.url}/validate`);
    expect(answered.headers.get("ratelimit-policy")).toBe("3;w=60");
    expect(answered.headers.get("ratelimit")).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    expect(await statuses(() => first(`${server.url}/validate`), 2)).toEqual([200, 200]);
    const refused = await first(`${server.url}/validate`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(refused.headers.get("ratelimit")).toMatch(/^limit=3, remaining=0, reset=\d+$/);
    // A page reads it (this layer answers before the API's CORS middleware would).
    expect(refused.headers.get("access-control-allow-origin")).toBe("*");
    expect(await refused.json()).toEqual({
      error: { code: "rate_limited", message: expect.stringContaining("Retry-After") },
    });
    // Another client is not affected; the operator's probes are never limited.
    expect((await client("127.0.1.2")(`${server.url}/validate`)).status).toBe(200);
    expect(await statuses(() => first(`${server.url}/livez`), 5)).toEqual(Array(5).fill(200));
    expect(await metrics.registry.getSingleMetricAsString("presend_rate_limited_total")).toContain(
      'limit="free"} 1',
    );
  });

  it("never counts a CORS preflight: a page's preflights neither run out its budget nor get the 429", async () => {
    const send = client("127.0.1.14");
    const preflight = (path: string) => () =>
      send(`${server.url}${path}`, {
        method: "OPTIONS",
        headers: { origin: "https://dapp.example", "access-control-request-method": "POST" },
      });
    const preflights = [
      ...(await statuses(preflight("/validate"), 5)),
      ...(await statuses(preflight("/check"), 5)),
    ];
    expect(preflights).not.toContain(429);
    const answered = await send(`${server.url}/validate`);
    expect(answered.headers.get("ratelimit")).toMatch(/^limit=3, remaining=2, reset=\d+$/);
    expect(await statuses(() => send(`${server.url}/check`, { method: "POST" }), 1)).toEqual([402]);
  });

  it("limits unpaid challenges on the paid routes, not a correct payment, and a paid check gives its challenge back", async () => {
    const send = client("127.0.1.3");
    const unpaid = () => send(`${server.url}/check`, { method: "POST" });
    expect(await statuses(unpaid, 3)).toEqual([402, 402, 429]);
    const paid = () =>
      send(`${server.url}/check`, {
        method: "POST",
        headers: { "payment-signature": goodPayment },
      });
    expect(await statuses(paid, 5)).toEqual(Array(5).fill(200));
    // Paid checks gave their challenges back (never below zero): two more, then the limit.
    expect(await statuses(unpaid, 3)).toEqual([402, 402, 429]);
  });

  it("a payment header that carries no authorization is an unpaid challenge: junk headers run out the budget", async () => {
    const send = client("127.0.1.7");
    const junk = (header: string) => () =>
      send(`${server.url}/check`, { method: "POST", headers: { "payment-signature": header } });
    expect(await statuses(junk("x"), 1)).toEqual([402]);
    expect(await statuses(junk(Buffer.from("{}").toString("base64")), 1)).toEqual([402]);
    expect(await statuses(junk("junk"), 2)).toEqual([429, 429]);
    // A header too large to decode pays for nothing either: one more challenge, refused.
    expect(await statuses(junk("x".repeat(maxPaymentHeaderBytes + 1)), 1)).toEqual([429]);
    // Counted as challenges, not as refused payments: this client's correct payment is served.
    expect(await statuses(junk(goodPayment), 1)).toEqual([200]);
  });

  it("refused payments count as challenges and, once they fill the budget, the client's payments get the 429", async () => {
    const send = client("127.0.1.8");
    const pay = (header: string) => () =>
      send(`${server.url}/check`, { method: "POST", headers: { "payment-signature": header } });
    expect(await statuses(pay(refusedPayment), 2)).toEqual([402, 402]);
    expect(await statuses(() => send(`${server.url}/check`, { method: "POST" }), 1)).toEqual([429]);
    const limited = await pay(refusedPayment)();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(limited.headers.get("ratelimit")).toMatch(/^limit=2, remaining=0, reset=\d+$/);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect(await limited.json()).toEqual({
      error: { code: "rate_limited", message: expect.stringContaining("refused payments") },
    });
    // Over the budget of refused payments, even a correct payment waits for the window.
    expect(await statuses(pay(goodPayment), 1)).toEqual([429]);
    expect(await metrics.registry.getSingleMetricAsString("presend_rate_limited_total")).toContain(
      'limit="refused_payment"} 2',
    );
  });

  it("a correct payer is never limited by its challenges: over the challenge budget, its payments are still served", async () => {
    const send = client("127.0.1.9");
    const unpaid = () => send(`${server.url}/check`, { method: "POST" });
    expect(await statuses(unpaid, 4)).toEqual([402, 402, 429, 429]);
    const paid = () =>
      send(`${server.url}/check`, {
        method: "POST",
        headers: { "payment-signature": goodPayment },
      });
    expect(await statuses(paid, 5)).toEqual(Array(5).fill(200));
    // One refused payment is under the budget of refused payments: answered, and then paid again.
    const refused = () =>
      send(`${server.url}/check`, {
        method: "POST",
        headers: { "payment-signature": refusedPayment },
      });
    expect(await statuses(refused, 1)).toEqual([402]);
    expect(await statuses(paid, 1)).toEqual([200]);
  });

  it("behind a trusted proxy, keys on the last X-Forwarded-For entry (a forged first entry changes nothing)", async () => {
    const proxied = await serveWithDrain(
      appWith(rateLimits({ settings: { ...settings, trustProxy: true } })),
      { port: 0 },
    );
    try {
      const send = client("127.0.1.4");
      const forged = (n: number) => () =>
        send(`${proxied.url}/validate`, {
          headers: { "x-forwarded-for": `10.0.0.${n}, 203.0.113.7` },
        });
      const seen = [];
      for (let i = 0; i < 4; i++) seen.push(...(await statuses(forged(i), 1)));
      expect(seen).toEqual([200, 200, 200, 429]);
    } finally {
      await proxied.drain(1_000);
    }
  });
});

describe("rateLimits shared through Redis", () => {
  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  it("two replicas count one client in the same keys", async () => {
    const clients = [openRedis(redis.url), openRedis(redis.url)];
    const replicas = await Promise.all(
      clients.map((connection) =>
        serveWithDrain(appWith(rateLimits({ settings, redis: connection })), { port: 0 }),
      ),
    );
    try {
      const send = client("127.0.1.5");
      const seen: number[] = [];
      for (let i = 0; i < 4; i++) {
        const replica = replicas[i % 2] as DrainingServer;
        seen.push(...(await statuses(() => send(`${replica.url}/validate`), 1)));
      }
      expect(seen).toEqual([200, 200, 200, 429]);
      // Refused payments too: two on two replicas fill the budget for both.
      const forger = client("127.0.1.10");
      const refusedOn = (replica: DrainingServer) => () =>
        forger(`${replica.url}/check`, {
          method: "POST",
          headers: { "payment-signature": refusedPayment },
        });
      const [first, second] = replicas as [DrainingServer, DrainingServer];
      expect(await statuses(refusedOn(first), 1)).toEqual([402]);
      expect(await statuses(refusedOn(second), 1)).toEqual([402]);
      expect(await statuses(refusedOn(first), 1)).toEqual([429]);
      expect(await statuses(refusedOn(second), 1)).toEqual([429]);
    } finally {
      await Promise.all(replicas.map((replica) => replica.drain(1_000)));
      for (const connection of clients) connection.disconnect();
    }
  });
});

describe("rateLimits when Redis is down", () => {
  it("falls back to counting in this replica's memory: the limit still holds, nothing fails; counts in Redis again once it is back", async () => {
    const redis = await startRedis();
    const connection = openRedis(redis.url);
    const server = await serveWithDrain(appWith(rateLimits({ settings, redis: connection })), {
      port: 0,
    });
    try {
      // Counted in Redis while it is up, then in memory (this replica alone) once it is gone.
      const send = client("127.0.1.6");
      expect((await send(`${server.url}/validate`)).status).toBe(200);
      await redis.kill();
      const started = performance.now();
      expect(await statuses(() => send(`${server.url}/validate`), 5)).toEqual([
        200, 200, 200, 429, 429,
      ]);
      // Not one command's timeout (1 s) per request: a lost connection is known at once.
      expect(performance.now() - started).toBeLessThan(1_000);

      // Redis back: this replica counts in it again, shared with a replica that never lost it
      // (one stuck in memory would give the client a budget on each of them).
      await redis.restart();
      await expect.poll(() => connection.status, { timeout: 10_000 }).toBe("ready");
      const other = openRedis(redis.url);
      const otherServer = await serveWithDrain(appWith(rateLimits({ settings, redis: other })), {
        port: 0,
      });
      try {
        const returning = client("127.0.1.12");
        expect(await statuses(() => returning(`${server.url}/validate`), 3)).toEqual([
          200, 200, 200,
        ]);
        expect(await statuses(() => returning(`${otherServer.url}/validate`), 1)).toEqual([429]);
      } finally {
        await otherServer.drain(1_000);
        other.disconnect();
      }
    } finally {
      await server.drain(1_000);
      connection.disconnect();
      await redis.stop();
    }
  }, 30_000);

  it("falls back to memory while Redis hangs with its connection open: every request is answered, the limit still holds", async () => {
    const redis = await startRedis();
    const connection = openRedis(redis.url);
    const storeErrors: unknown[] = [];
    const server = await serveWithDrain(
      appWith(
        rateLimits({
          settings,
          redis: connection,
          onStoreError: (error) => storeErrors.push(error),
        }),
      ),
      { port: 0 },
    );
    try {
      const send = client("127.0.1.13");
      expect((await send(`${server.url}/validate`)).status).toBe(200);
      // Stopped, not killed: the connection stays up, so each command fails on its timeout.
      redis.freeze();
      expect(await statuses(() => send(`${server.url}/validate`), 4)).toEqual([200, 200, 200, 429]);
      expect(storeErrors.length).toBeGreaterThan(0);
    } finally {
      redis.thaw();
      await server.drain(1_000);
      connection.disconnect();
      await redis.stop();
    }
  }, 30_000);
});
