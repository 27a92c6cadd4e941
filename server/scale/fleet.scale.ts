import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type PaidResult as ClientPaidResult,
  createMemoryPinStore,
  createPresendClient,
  createSessionSpendCap,
  type PresendClient,
} from "@presend/client";
import { devnetClient, mintStablecoin, usdcBalanceOnBase } from "@presend/devnet";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains } from "@presend/shared/chains/chains";
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import {
  appendPaymentIdentifierToExtensions,
  generatePaymentId,
} from "@x402/extensions/payment-identifier";
import {
  type CompleteSIWxInfo,
  createSIWxPayload,
  encodeSIWxHeader,
  SIGN_IN_WITH_X,
  type SIWxExtension,
} from "@x402/extensions/sign-in-with-x";
import { wrapFetchWithPayment, x402Client, x402HTTPClient } from "@x402/fetch";
import pg from "pg";
import { Agent, fetch as undiciFetch } from "undici";
import { createPublicClient, erc20Abi, type Hex, http, parseAbiItem } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAttestationKeyFile } from "../src/payments/attestation/loadAttestationKey";
import { rotateAttestationKey } from "../src/payments/attestation/rotateAttestationKey";
import { leaseTtlMs } from "../src/payments/resourceServer/paymentLedger";
import { startTamperingProxy } from "../src/payments/testing/startTamperingProxy";
import { type Fleet, type Replica, startFleet } from "./startFleet";

const freeLimit = 10;
const challengeLimit = 40;
const price = 10_000n;

let fleet: Fleet;
let usdc: ReturnType<typeof usdcBalanceOnBase>;
let db: pg.Client;
let base: ReturnType<typeof createPublicClient>;
const figures: string[] = [];

beforeAll(async () => {
  fleet = await startFleet({
    payers: 5,
    replicaEnv: {
      RATE_LIMITS: "on",
      RATE_LIMIT_FREE: String(freeLimit),
      RATE_LIMIT_CHALLENGES: String(challengeLimit),
      RATE_LIMIT_WINDOW_MS: "600000",
      CACHE_TTL_MS: "600000",
      DRAIN_TIMEOUT_MS: "60000",
      // Channel money moves within the test's wait: claims every 2 s, the escrow swept every 3 s.
      CHANNEL_CLAIM_INTERVAL_SECS: "2",
      CHANNEL_SETTLE_INTERVAL_SECS: "3",
    },
  });
  db = new pg.Client({ connectionString: fleet.postgres.url });
  await db.connect();
  base = createPublicClient({ transport: http(fleet.world.chains.base.rpcUrl) });
  usdc = usdcBalanceOnBase(fleet.world.chains.base);
});

afterAll(async () => {
  await db?.end();
  await fleet?.stop();
  console.log(`\nscale figures:\n  ${figures.join("\n  ")}\n`);
});

/** fetch from a given loopback address, so each simulated client has its own IP. */
function fetchFrom(localAddress: string): typeof fetch {
  // Node's own header limit (16 KB), as every client of ours and x402's fetch has it.
  const dispatcher = new Agent({ localAddress });
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    // undici's fetch takes its own Request class only: pass a global one as URL and init.
    const request = new Request(input, init);
    const body = ["GET", "HEAD"].includes(request.method) ? undefined : await request.arrayBuffer();
    return undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      ...(body && { body: new Uint8Array(body) }),
      dispatcher,
    });
  }) as unknown as typeof fetch;
}

/** fetch from a new address of `127.a.b.*` on every request (many clients behind one payer). */
function fetchRotating(prefix: string): typeof fetch {
  const fetches = Array.from({ length: 250 }, (_, i) => fetchFrom(`${prefix}.${i + 1}`));
  let next = 0;
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    next = (next + 1) % fetches.length;
    return (fetches[next] as typeof fetch)(input, init);
  }) as typeof fetch;
}

function payingFetch(key: Hex, localAddress: string): typeof fetch {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(privateKeyToAccount(key)) });
  return wrapFetchWithPayment(fetchFrom(localAddress), client);
}

/** One paid check's answer: status, settlement, body, and where it said the report is kept. */
type PaidResult = { status: number; tx: string | null; body: unknown; receipt: string | null };

async function paidCheck(pay: typeof fetch, url: string, address: string): Promise<PaidResult> {
  try {
    const response = await pay(`${url}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address, chain: "base" }),
    });
    const header = response.headers.get("payment-response");
    const body = await response.json().catch(() => null);
    const settlement = header ? decodePaymentResponseHeader(header) : null;
    return {
      status: response.status,
      tx: settlement?.transaction?.toLowerCase() ?? null,
      body,
      receipt: response.headers.get("presend-receipt"),
    };
  } catch {
    // The connection died (a killed replica): no answer at all.
    return { status: 0, tx: null, body: null, receipt: null };
  }
}

/**
 * Fetches, as its payer, the report an answer said was kept at `/receipts/{payer}/{nonce}`,
 * through the fleet, until its record is decided (the reconciler's pass, or /receipts asking
 * the chain): the report as kept, the settlement transaction and the nonce.
 */
async function fetchKeptReport(receipt: string, fetchAs: typeof fetch = fetch) {
  const [, payer, nonce] =
    new URL(receipt).pathname.match(/^\/receipts\/(0x\w{40})\/(0x\w{64})$/) ?? [];
  const key = fleet.payers.find(
    (candidate) =>
      privateKeyToAccount(candidate as Hex).address.toLowerCase() === payer?.toLowerCase(),
  );
  if (!nonce || !key) throw new Error(`not a receipt of the fleet's payers: ${receipt}`);
  const proof = await privateKeyToAccount(key as Hex).signMessage({
    message: receiptMessage(nonce),
  });
  const url = `${fleet.nginx.url}/receipts/${payer}/${nonce}?signature=${proof}`;
  let answer = await fetchAs(url);
  const deadline = Date.now() + 90_000;
  while (answer.status === 409 && Date.now() < deadline) {
    await answer.body?.cancel();
    await sleep(1_000);
    answer = await fetchAs(url);
  }
  const body = (await answer.json()) as { report?: unknown; tx?: string };
  return {
    status: answer.status,
    report: body.report,
    tx: body.tx?.toLowerCase(),
    nonce: nonce.toLowerCase(),
  };
}

/** `count` paid checks at once, spread over the payers, each payer from its own address. */
async function paidLoad(url: string, count: number, subnet: number, targets: string[]) {
  const pays = fleet.payers.map((key, i) => payingFetch(key, `127.0.${subnet}.${i + 1}`));
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      paidCheck(pays[i % pays.length] as typeof fetch, url, targets[i % targets.length] as string),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  return { results, seconds, perSecond: count / seconds };
}

async function transfersToPayTo(fromBlock: bigint, toBlock: bigint) {
  const logs = await base.getContractEvents({
    address: chains.base.usdc.address,
    abi: erc20Abi,
    eventName: "Transfer",
    args: { to: fleet.world.accounts.payTo.address },
    fromBlock,
    toBlock,
  });
  return logs.map((log) => log.transactionHash.toLowerCase());
}

async function authorizationsUsed(fromBlock: bigint, toBlock: bigint) {
  const logs = await base.getLogs({
    address: chains.base.usdc.address,
    event: parseAbiItem(
      "event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)",
    ),
    fromBlock,
    toBlock,
  });
  return logs.map((log) => ({
    payer: (log.args.authorizer as string).toLowerCase(),
    nonce: (log.args.nonce as string).toLowerCase(),
    tx: log.transactionHash.toLowerCase(),
  }));
}

/**
 * The authorizations used from `fromBlock` on, once the chain has gone quiet (none added for
 * three seconds): a settlement a frozen part held lands when it wakes, after its payer was
 * answered settlement_unknown.
 */
async function authorizationsUsedOnceQuiet(fromBlock: bigint) {
  let used = await authorizationsUsed(fromBlock, await base.getBlockNumber({ cacheTime: 0 }));
  for (let quietFor = 0; quietFor < 3; ) {
    await sleep(1_000);
    const now = await authorizationsUsed(fromBlock, await base.getBlockNumber({ cacheTime: 0 }));
    quietFor = now.length === used.length ? quietFor + 1 : 0;
    used = now;
  }
  return used;
}

/** The nonce a settlement_unknown answer's receipt URL names (`/receipts/<payer>/<nonce>`). */
const nonceOf = (receipt: string | null) =>
  new URL(receipt ?? "http://none").pathname.split("/").at(-1)?.toLowerCase();

async function settledRecords(txs: string[]) {
  const result = await db.query<{ tx: string; report_json: string }>(
    "SELECT tx, report_json FROM payment_records WHERE status = 'settled' AND tx = ANY($1)",
    [txs],
  );
  return new Map(result.rows.map((row) => [row.tx, JSON.parse(row.report_json) as unknown]));
}

/** Sum of a metric's samples on one replica (labels matched by substring). */
async function metric(replica: Replica, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${replica.url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith(name) && line.includes(labels))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function errorCode(body: unknown): string | undefined {
  return (body as { error?: { code?: string } } | null)?.error?.code;
}

/** How many answers had a status, and every other answer's status and error code. */
function tally(results: PaidResult[]) {
  const count = (status: number) => results.filter((result) => result.status === status).length;
  const codes = new Set(
    results
      .filter((result) => result.status !== 200)
      .map((result) => `${result.status} ${errorCode(result.body) ?? ""}`.trim()),
  );
  return { count, codes };
}

async function readyz(replica: Replica): Promise<number> {
  const response = await fetch(`${replica.url}/readyz`);
  await response.body?.cancel();
  return response.status;
}

async function txpoolStatus(): Promise<{ pending: string }> {
  return base.request({ method: "txpool_status" as never }) as Promise<{ pending: string }>;
}

/** Waits until a transfer to payTo is on chain after block `from` (settlements are under way). */
async function firstTransferAfter(from: bigint): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (true) {
    const head = await base.getBlockNumber({ cacheTime: 0 });
    if (head > from && (await transfersToPayTo(from + 1n, head)).length > 0) return;
    if (Date.now() > deadline) throw new Error("no settlement within 30 s");
    await sleep(50);
  }
}

const demoTargets = () =>
  fleet.world.demo.filter((demo) => demo.chain === "base").map((demo) => demo.address);

describe("presend as a fleet: facilitator service, two replicas behind nginx, PostgreSQL, Redis", () => {
  it("100 concurrent paid checks through nginx from several payers reconcile", async () => {
    const from = await base.getBlockNumber({ cacheTime: 0 });
    const load = await paidLoad(fleet.nginx.url, 100, 1, demoTargets());
    const to = await base.getBlockNumber({ cacheTime: 0 });
    const ok = load.results.filter((result) => result.status === 200);
    const txs = ok.map((result) => result.tx as string);
    const onChain = await transfersToPayTo(from, to);
    const records = await settledRecords(txs);
    figures.push(
      `load: ${load.results.length} paid checks through nginx, ${ok.length} x 200, ${onChain.length} on-chain settlements, ${records.size} settled records in PostgreSQL, ${load.results.length - ok.length} refused, ${load.perSecond.toFixed(1)} paid checks/s (two replicas)`,
    );
    const refusal = load.results.find((result) => result.status !== 200);
    if (refusal) figures.push(`first refusal: ${refusal.status} ${JSON.stringify(refusal.body)}`);
    expect(load.results.map((result) => result.status)).toEqual(Array(100).fill(200));
    expect(new Set(txs).size).toBe(100);
    expect(new Set(onChain)).toEqual(new Set(txs));
    expect(records.size).toBe(100);
    for (const result of ok) expect(records.get(result.tx as string)).toEqual(result.body);
  });

  it("a receipt settled through replica A is fetched through replica B; the same authorization on B is not charged again", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const key = fleet.payers[0] as Hex;
    const payer = privateKeyToAccount(key);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client);
    const body = JSON.stringify({ address: demoTargets()[0], chain: "base" });
    const post = (replica: Replica, headers: Record<string, string> = {}) =>
      fetchFrom("127.0.5.1")(`${replica.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const challenge = await post(a);
    expect(challenge.status).toBe(402);
    const required = httpClient.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const signature = httpClient.encodePaymentSignatureHeader(
      await httpClient.createPaymentPayload(required),
    );
    const before = await usdc(payer.address);
    const paid = await post(a, signature);
    expect(paid.status).toBe(200);
    const report = await paid.json();
    const tx = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "").transaction;

    const proof = await payer.signMessage({ message: receiptMessage(tx) });
    const receipt = await fetch(`${b.url}/receipts/${tx}?signature=${proof}`);
    expect(receipt.status).toBe(200);
    expect((await receipt.json()).report).toEqual(report);

    const replay = await post(b, signature);
    expect(replay.status).toBe(409);
    expect((await replay.json()).error.code).toBe("authorization_used");
    expect(before - (await usdc(payer.address))).toBe(price);
    figures.push(
      "receipt: settled via replica A, fetched via replica B (200, same report); the same authorization replayed on B: 409 authorization_used, charged once",
    );
  });

  it("a payment id retried on the other replica with a fresh signature gets the same report and is charged once", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const key = fleet.payers[1] as Hex;
    const payer = privateKeyToAccount(key);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client);
    const body = JSON.stringify({ address: demoTargets()[1], chain: "base" });
    const post = (replica: Replica, headers: Record<string, string> = {}) =>
      fetchFrom("127.0.5.2")(`${replica.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const paymentId = generatePaymentId();
    /** A fresh EIP-3009 authorization from `replica`'s 402, carrying the same payment id. */
    const signedWithId = async (replica: Replica) => {
      const challenge = await post(replica);
      expect(challenge.status).toBe(402);
      const required = httpClient.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      );
      appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
      return httpClient.encodePaymentSignatureHeader(
        await httpClient.createPaymentPayload(required),
      );
    };
    const before = await usdc(payer.address);
    const first = await post(a, await signedWithId(a));
    expect(first.status).toBe(200);
    const report = await first.json();
    const tx = decodePaymentResponseHeader(first.headers.get("payment-response") ?? "").transaction;

    const retry = await post(b, await signedWithId(b));
    expect(retry.status).toBe(200);
    const again = await retry.json();
    expect(again).toEqual(report);
    expect(again.checkedAt).toBe(report.checkedAt);
    expect(
      decodePaymentResponseHeader(retry.headers.get("payment-response") ?? "").transaction,
    ).toBe(tx);
    expect(before - (await usdc(payer.address))).toBe(price);
    figures.push(
      "payment id: paid via replica A, retried with a fresh signature and the same id via replica B: 200, same report and checkedAt, same settlement, charged once",
    );
  });

  it("Sign-In-With-X across replicas: a report paid on replica A is re-read on replica B without paying; the same signed message replayed on A is refused", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const payer = privateKeyToAccount(fleet.payers[2] as Hex);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client);
    const body = JSON.stringify({ address: demoTargets()[1], chain: "base" });
    const post = (replica: Replica, headers: Record<string, string> = {}) =>
      fetchFrom("127.0.5.9")(`${replica.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const challenge = await post(a);
    expect(challenge.status).toBe(402);
    const required = httpClient.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const before = await usdc(payer.address);
    const paid = await post(
      a,
      httpClient.encodePaymentSignatureHeader(await httpClient.createPaymentPayload(required)),
    );
    expect(paid.status).toBe(200);
    const report = await paid.json();
    const tx = decodePaymentResponseHeader(paid.headers.get("payment-response") ?? "").transaction;

    // The wallet signs the sign-in challenge of a 402 from replica B, as the official hook does.
    const challengeB = await post(b);
    const offered = decodePaymentRequiredHeader(challengeB.headers.get("payment-required") ?? "")
      .extensions?.[SIGN_IN_WITH_X] as SIWxExtension;
    const chain = offered.supportedChains[0];
    const signIn = encodeSIWxHeader(
      await createSIWxPayload(
        { ...offered.info, chainId: chain?.chainId, type: chain?.type } as CompleteSIWxInfo,
        payer,
        `${fleet.nginx.url}/check`,
      ),
    );
    const reread = await post(b, { [SIGN_IN_WITH_X]: signIn });
    expect(reread.status).toBe(200);
    expect(await reread.json()).toEqual(report);
    expect(
      decodePaymentResponseHeader(reread.headers.get("payment-response") ?? "").transaction,
    ).toBe(tx);
    const replayed = await post(a, { [SIGN_IN_WITH_X]: signIn });
    expect(replayed.status).toBe(402);
    expect(before - (await usdc(payer.address))).toBe(price);
    figures.push(
      "sign-in-with-x: paid via replica A, re-read signed in via replica B (200, same report and settlement, no payment); the same signed message replayed on A: 402; charged once",
    );
  });

  it("rate limits hold across replicas: the second replica sees the first one's counts", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const client = fetchFrom("127.0.9.1");
    const free: number[] = [];
    for (let i = 0; i <= freeLimit; i++) {
      const replica = i % 2 === 0 ? a : b;
      const response = await client(`${replica.url}/validate?address=${demoTargets()[0]}`);
      free.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get("retry-after")).toMatch(/^\d+$/);
        expect((await response.json()).error.code).toBe("rate_limited");
      } else await response.body?.cancel();
    }
    expect(free).toEqual([...Array(freeLimit).fill(200), 429]);

    const unpaid = fetchFrom("127.0.9.2");
    const challenges: number[] = [];
    for (let i = 0; i <= challengeLimit; i++) {
      const replica = i % 2 === 0 ? a : b;
      const response = await unpaid(`${replica.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: demoTargets()[0], chain: "base" }),
      });
      challenges.push(response.status);
      await response.body?.cancel();
    }
    expect(challenges).toEqual([...Array(challengeLimit).fill(402), 429]);
    // A correct payment is not limited, also from a client over its challenge budget.
    const payer = privateKeyToAccount(fleet.payers[1] as Hex);
    const client402 = new x402Client();
    registerExactEvmScheme(client402, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client402);
    const body = JSON.stringify({ address: demoTargets()[0], chain: "base" });
    const challenge = await fetchFrom("127.0.9.3")(`${b.url}/check`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    const required = httpClient.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      await challenge.json(),
    );
    const paid = await unpaid(`${a.url}/check`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...httpClient.encodePaymentSignatureHeader(await httpClient.createPaymentPayload(required)),
      },
      body,
    });
    expect(paid.status).toBe(200);
    await paid.body?.cancel();
    figures.push(
      `rate limits: ${freeLimit} free requests alternating A/B, the next is 429 with Retry-After; ${challengeLimit} unpaid challenges alternating A/B, the next is 429; a paid request from that client passes`,
    );
  });

  it("the facts cache is shared: a repeated check on the other replica makes no upstream request", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const target = privateKeyToAccount(generatePrivateKey()).address;
    const pay = payingFetch(fleet.payers[2] as Hex, "127.0.6.1");
    expect((await paidCheck(pay, a.url, target)).status).toBe(200);
    const missesBefore = await metric(b, "presend_chain_cache_total", 'result="miss"');
    const upstreamBefore = await metric(b, "presend_upstream_rpc_duration_seconds_count");
    const hitsBefore = await metric(b, "presend_chain_cache_total", 'result="hit"');
    expect((await paidCheck(pay, b.url, target)).status).toBe(200);
    const misses = (await metric(b, "presend_chain_cache_total", 'result="miss"')) - missesBefore;
    const upstream =
      (await metric(b, "presend_upstream_rpc_duration_seconds_count")) - upstreamBefore;
    const hits = (await metric(b, "presend_chain_cache_total", 'result="hit"')) - hitsBefore;
    figures.push(
      `shared cache: a check on A, then the same on B: B made ${upstream} upstream requests (${hits} cache hits)`,
    );
    expect(misses).toBe(0);
    expect(upstream).toBe(0);
    expect(hits).toBeGreaterThan(0);
  });

  it("channel payments through nginx land on both replicas, one of them SIGKILLed halfway: every voucher charged once, its report kept and fetchable, the claimed sum reaching payTo, the rest refunded", async () => {
    const channelPayers = fleet.payers.slice(0, 4).map((key) => privateKeyToAccount(key));
    const checksEach = 8;
    const answered200 = async () => {
      const counts = await Promise.all(
        fleet.replicas.map((replica) =>
          metric(replica, "presend_http_requests_total", 'route="/check",status="200"'),
        ),
      );
      return counts;
    };
    const servedBefore = await answered200();
    const payToBefore = await usdc(fleet.world.accounts.payTo.address);
    const fromBlock = (await base.getBlockNumber({ cacheTime: 0 })) + 1n;
    const clients = channelPayers.map((account, i) =>
      createPresendClient({
        url: fleet.nginx.url,
        signer: account,
        pinStore: createMemoryPinStore(),
        spendCap: createSessionSpendCap(1_000_000n),
        fetch: fetchFrom(`127.0.14.${i + 1}`),
        channel: { voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())) },
      }),
    );
    // The payers at once, each its checks one after the other: nginx deals each payer's vouchers
    // out to both replicas in turn, so every channel is charged by both. Halfway, replica A is
    // killed (SIGKILL, between checks): B goes on with channels whose last voucher A took.
    const nonces: string[][] = channelPayers.map(() => []);
    const payChecks = (from: number, to: number) =>
      Promise.all(
        clients.map(async (client, i) => {
          for (let check = from; check < to; check += 1) {
            const result = await client.check({ address: demoTargets()[check % 2] as string });
            expect(result, `payer ${i}, check ${check}`).toMatchObject({
              type: "report",
              signature: "verified",
              charged: true,
              settlement: { viaChannel: true },
            });
            if (result.type === "report") nonces[i]?.push(result.settlement.transaction);
          }
        }),
      );
    const [a] = fleet.replicas as [Replica, Replica];
    await payChecks(0, checksEach / 2);
    const servedByA = (await answered200())[0] ?? 0;
    a.service.kill("SIGKILL");
    await sleep(500);
    await payChecks(checksEach / 2, checksEach);
    // What A answered before it died is all it answered; its count restarts with it.
    await fleet.restart(a);
    const servedAfter = [servedByA, (await answered200())[1] ?? 0];
    const served = servedAfter.map((count, i) => count - (servedBefore[i] ?? 0));
    // Both replicas took vouchers, and together answered each check once.
    for (const count of served) expect(count).toBeGreaterThan(0);
    expect(served.reduce((sum, count) => sum + count, 0)).toBe(channelPayers.length * checksEach);

    // The leader's claim on its schedule marks every voucher's record settled with its claim.
    const keys = channelPayers.flatMap((account, i) =>
      (nonces[i] ?? []).map((nonce) => ({ payer: account.address.toLowerCase(), nonce })),
    );
    expect(keys).toHaveLength(channelPayers.length * checksEach);
    expect(new Set(keys.map((key) => key.nonce)).size).toBe(keys.length);
    const recordsOf = async () =>
      (
        await db.query<{ payer: string; nonce: string; status: string; tx: string | null }>(
          "SELECT lower(payer) AS payer, lower(nonce) AS nonce, status, tx FROM payment_records WHERE lower(payer) = ANY($1) AND lower(nonce) = ANY($2)",
          [keys.map((key) => key.payer), keys.map((key) => key.nonce.toLowerCase())],
        )
      ).rows;
    const deadline = Date.now() + 60_000;
    let records = await recordsOf();
    while (records.some((record) => record.status !== "settled") && Date.now() < deadline) {
      await sleep(500);
      records = await recordsOf();
    }
    expect(records).toHaveLength(keys.length);
    expect(records.filter((record) => record.status !== "settled")).toEqual([]);
    const claims = [...new Set(records.map((record) => record.tx as Hex))];
    for (const claim of claims) {
      expect((await base.getTransactionReceipt({ hash: claim })).status).toBe("success");
    }
    figures.push(
      `channels across two replicas: ${keys.length} checks by ${channelPayers.length} payers (A ${served[0]} before it was SIGKILLed halfway, B ${served[1]}), claimed in ${claims.length} transaction(s)`,
    );

    // The settle on its schedule moves exactly the claimed sum from the escrow to payTo.
    const expected = BigInt(keys.length) * price;
    const settleDeadline = Date.now() + 60_000;
    while (
      (await usdc(fleet.world.accounts.payTo.address)) - payToBefore < expected &&
      Date.now() < settleDeadline
    ) {
      await sleep(500);
    }
    expect((await usdc(fleet.world.accounts.payTo.address)) - payToBefore).toBe(expected);
    const fromEscrow = await base.getContractEvents({
      address: chains.base.usdc.address,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { from: BATCH_SETTLEMENT_ADDRESS, to: fleet.world.accounts.payTo.address },
      fromBlock,
      toBlock: await base.getBlockNumber({ cacheTime: 0 }),
    });
    expect(fromEscrow.reduce((sum, log) => sum + (log.args.value ?? 0n), 0n)).toBe(expected);

    // Each payer fetches every report again through nginx, verified under the key it pinned.
    for (const [i, client] of clients.entries()) {
      for (const nonce of nonces[i] ?? []) {
        expect(
          await client.receipt({
            payer: channelPayers[i]?.address as Hex,
            nonce: nonce as Hex,
          }),
        ).toMatchObject({ type: "report", signature: "verified" });
      }
    }

    // Closing: each payer gets back what its deposit did not pay for.
    for (const [i, client] of clients.entries()) {
      const payer = channelPayers[i]?.address as Hex;
      const before = await usdc(payer);
      expect(await client.closeChannel()).toMatchObject({ type: "closed" });
      expect(await usdc(payer), `payer ${i}`).toBe(before + 2n * price);
    }
  });

  /**
   * Payers over channels, each its checks one after the other until `stop` resolves, every
   * outcome kept with the voucher's record key (the client's `paying` event names it).
   */
  type ChannelOutcome = { payer: number; nonce: Hex | null; result: ClientPaidResult<unknown> };
  async function channelPayersFor(count: number, subnet: number) {
    const minter = privateKeyToAccount(fleet.world.accounts.faucet.privateKey);
    const chain = devnetClient("base", fleet.world.chains.base.rpcUrl);
    const accounts = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
    for (const account of accounts) {
      await mintStablecoin(chain, {
        token: chains.base.usdc.address,
        minter,
        to: account.address,
        amount: 10_000_000n,
      });
    }
    const sending: Array<Hex | null> = accounts.map(() => null);
    const routes: Array<string | null> = accounts.map(() => null);
    const rotating = accounts.map((_, i) => fetchRotating(`127.${subnet}.${i + 1}`));
    const clients = accounts.map((account, i) =>
      createPresendClient({
        url: fleet.nginx.url,
        // Read access to Base, as the CLI gives it: a channel whose answer was lost resyncs.
        signer: { ...account, readContract: (args) => base.readContract(args as never) },
        pinStore: createMemoryPinStore(),
        spendCap: createSessionSpendCap(10_000_000n),
        // A new loopback address per request: the per-address limits are not what is tested.
        // The fleet's origin is what the client pins and pays; `routes` may send it elsewhere.
        fetch: async (input, init) => {
          const request = new Request(input, init);
          const url = request.url.replace(fleet.nginx.url, routes[i] ?? fleet.nginx.url);
          const body = ["GET", "HEAD"].includes(request.method)
            ? undefined
            : await request.arrayBuffer();
          return (rotating[i] as typeof fetch)(url, {
            method: request.method,
            headers: request.headers,
            redirect: "manual",
            ...(body && { body }),
          });
        },
        channel: {
          voucherSigner: toClientEvmSigner(privateKeyToAccount(generatePrivateKey())),
          deposit: 200n * price,
        },
        onEvent: (event) => {
          if (event.type === "paying") sending[i] = event.authorization.nonce;
        },
      }),
    );
    const outcomes: ChannelOutcome[] = [];
    const checkOnce = async (i: number) => {
      sending[i] = null;
      const result = await (clients[i] as PresendClient).check({
        address: demoTargets()[outcomes.length % 2] as Hex,
      });
      // Null when nothing was sent (refused before signing).
      const nonce: Hex | null = sending.at(i) ?? null;
      outcomes.push({ payer: i, nonce, result });
      return result;
    };
    /** The payers (default all) check one after another until `stop` resolves. */
    const loop = async (stop: Promise<unknown>, which = accounts.map((_, i) => i)) => {
      let stopped = false;
      void stop.then(() => {
        stopped = true;
      });
      await Promise.all(
        which.map(async (i) => {
          while (!stopped) await checkOnce(i);
        }),
      );
    };
    const balances = () => Promise.all(accounts.map((account) => usdc(account.address)));
    /** Sends payer `i`'s requests to `url` instead of the fleet's nginx (null: back to it). */
    const routeThrough = (i: number, url: string | null) => {
      routes[i] = url;
    };
    return { accounts, clients, outcomes, checkOnce, loop, balances, routeThrough };
  }

  /**
   * The books of channel payments after faults: every outcome the client said was charged, and
   * every "charged: unknown" that /receipts answers with the report, is a voucher whose record is
   * settled by a successful claim; every "not charged" has no charge behind it; each payer's
   * channel closed, it paid exactly price times its charged checks; payTo got the same.
   */
  async function reconcileChannelOutcomes(
    payers: Awaited<ReturnType<typeof channelPayersFor>>,
    before: { balances: bigint[]; payTo: bigint },
  ) {
    const { accounts, clients, outcomes } = payers;
    const kinds = new Map<string, number>();
    for (const { result } of outcomes) {
      const kind = `${result.type}${result.type === "not_charged" ? ` ${result.code}` : ""}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    // Nobody hears "internal error" or a refusal of the client's own, and nothing is forged.
    for (const { result } of outcomes) {
      expect(["report", "not_charged", "unrecovered"]).toContain(result.type);
      if (result.type === "not_charged") expect(result.status).not.toBe(500);
    }
    const charged = outcomes.filter((o) => o.result.type === "report");
    const unknown = outcomes.filter((o) => o.result.type === "unrecovered");
    const notCharged = outcomes.filter((o) => o.result.type === "not_charged");
    const keysOf = (list: ChannelOutcome[]) =>
      list.flatMap((o) =>
        o.nonce === null
          ? []
          : [
              {
                payer: String(accounts[o.payer]?.address).toLowerCase(),
                nonce: o.nonce.toLowerCase(),
              },
            ],
      );
    const recordsOf = async (list: ChannelOutcome[]) => {
      const keys = keysOf(list);
      const rows = await db.query<{ payer: string; nonce: string; status: string; tx: string }>(
        "SELECT lower(payer) AS payer, lower(nonce) AS nonce, status, tx FROM payment_records WHERE lower(nonce) = ANY($1)",
        [keys.map((key) => key.nonce)],
      );
      return new Map(rows.rows.map((row) => [row.nonce, row]));
    };
    // Every charged voucher is claimed: its record settled with a successful claim.
    await expect
      .poll(
        async () =>
          [...(await recordsOf(charged)).values()].filter((row) => row.status === "settled").length,
        { timeout: 60_000, interval: 500 },
      )
      .toBe(charged.length);
    // "Charged: unknown": /receipts answers the report once claimed, or proves no charge.
    const recovered: ChannelOutcome[] = [];
    for (const outcome of unknown) {
      let fetched = await (clients[outcome.payer] as PresendClient).receipt({
        payer: accounts[outcome.payer]?.address as Hex,
        nonce: outcome.nonce as Hex,
      });
      const deadline = Date.now() + 60_000;
      while (fetched.type === "receipt_unavailable" && Date.now() < deadline) {
        await sleep(1_000);
        fetched = await (clients[outcome.payer] as PresendClient).receipt({
          payer: accounts[outcome.payer]?.address as Hex,
          nonce: outcome.nonce as Hex,
        });
      }
      expect(["report", "not_charged"], JSON.stringify(fetched)).toContain(fetched.type);
      if (fetched.type === "report") {
        expect(fetched.signature).toBe("verified");
        recovered.push(outcome);
      }
    }
    const paid = [...charged, ...recovered];
    const records = await recordsOf(paid);
    for (const key of keysOf(paid)) {
      expect(records.get(key.nonce)?.status, `record ${key.nonce}`).toBe("settled");
    }
    const claims = [...new Set([...records.values()].map((row) => row.tx as Hex))];
    for (const claim of claims) {
      expect((await base.getTransactionReceipt({ hash: claim })).status).toBe("success");
    }
    // A "not charged" is true: no record of it stands as charged.
    const refusedRecords = await recordsOf(notCharged);
    for (const row of refusedRecords.values()) expect(row.status).not.toBe("settled");
    // Money: payTo gets the claimed sum, each payer paid for its charged checks, the rest refunded.
    const expected = BigInt(paid.length) * price;
    await expect
      .poll(async () => (await usdc(fleet.world.accounts.payTo.address)) - before.payTo, {
        timeout: 60_000,
        interval: 500,
      })
      .toBe(expected);
    for (const [i, client] of clients.entries()) {
      const closed = await client.closeChannel();
      expect(closed, `payer ${i} closes: ${JSON.stringify(closed)}`).toMatchObject({
        type: "closed",
      });
    }
    const after = await payers.balances();
    for (const [i] of accounts.entries()) {
      const spent = (before.balances[i] ?? 0n) - (after[i] ?? 0n);
      expect(spent, `payer ${i}`).toBe(BigInt(paid.filter((o) => o.payer === i).length) * price);
    }
    expect((await usdc(fleet.world.accounts.payTo.address)) - before.payTo).toBe(expected);
    return {
      kinds: [...kinds].map(([kind, n]) => `${n} ${kind}`).join(", "),
      charged: charged.length,
      recovered: recovered.length,
      claims: claims.length,
    };
  }

  it("channel payments through Redis killed, PostgreSQL frozen and the facilitator frozen during a claim: every voucher served is claimed once, every 'not charged' is true, the rest refunded", async () => {
    // Four payers through every fault; the fifth opens its channel (its deposit) while the
    // facilitator is frozen, the sixth while it is frozen settling that deposit.
    const payers = await channelPayersFor(6, 20);
    const early = [0, 1, 2, 3];
    const before = {
      balances: await payers.balances(),
      payTo: await usdc(fleet.world.accounts.payTo.address),
    };
    // Each payer's channel opened (the deposit), then vouchers one after another.
    await Promise.all(early.map((i) => payers.checkOnce(i)));
    for (const { result } of payers.outcomes) expect(result.type).toBe("report");

    // Redis killed under the vouchers, back 5 s later.
    const redisDown = (async () => {
      await sleep(1_000);
      await fleet.redis.kill();
      await sleep(5_000);
      await fleet.redis.restart();
      await sleep(1_500);
    })();
    await payers.loop(redisDown, early);
    const afterRedis = payers.outcomes.length;

    // PostgreSQL frozen under the vouchers (and the claims the leader runs every 2 s).
    const postgresFrozen = (async () => {
      await sleep(1_000);
      fleet.postgres.freeze();
      // Past the pool's query deadline (5 s): statements sent before the freeze time out.
      await sleep(7_000);
      fleet.postgres.thaw();
      await sleep(1_500);
    })();
    await payers.loop(postgresFrozen, early);
    const afterPostgres = payers.outcomes.length;

    // The facilitator frozen past a claim's deadline (20 s) while vouchers wait to be claimed:
    // the claim it held is sent when it wakes, and the manager claims again meanwhile.
    await Promise.all(early.map((i) => payers.checkOnce(i)));
    const jobFailures = () =>
      fleet.replicas
        .map((replica) => replica.service.output().split("channel job failed").length - 1)
        .reduce((sum, n) => sum + n, 0);
    const jobFailuresBefore = jobFailures();
    fleet.facilitator.kill("SIGSTOP");
    let deposit: Promise<unknown> = Promise.resolve();
    try {
      await sleep(500);
      deposit = payers.checkOnce(4);
      await sleep(21_500);
    } finally {
      fleet.facilitator.kill("SIGCONT");
    }
    await deposit;
    // The claims and settles the leader sent meanwhile went unanswered (each logged, run again).
    const unanswered = jobFailures() - jobFailuresBefore;
    const depositOutcome = payers.outcomes.find((outcome) => outcome.payer === 4);
    await Promise.all([0, 1, 2, 3, 4].map((i) => payers.checkOnce(i)));

    // A deposit whose settlement the facilitator holds: frozen the moment the deposit's /settle
    // reaches it (a replica of its own, with a 6 s settle deadline, behind a proxy that sees it),
    // awake 10 s later, when it sends the deposit the replica stopped waiting for.
    const toFacilitator = await startTamperingProxy(fleet.facilitator.url);
    let heldDeposit = false;
    toFacilitator.set({
      before: (request) => {
        if (request.path === "/settle" && request.body.includes('"deposit"') && !heldDeposit) {
          heldDeposit = true;
          fleet.facilitator.kill("SIGSTOP");
          setTimeout(() => fleet.facilitator.kill("SIGCONT"), 10_000);
        }
        return undefined;
      },
    });
    const held = await fleet.spawnReplica({
      FACILITATOR_URL: toFacilitator.url,
      FACILITATOR_SETTLE_TIMEOUT_MS: "6000",
    });
    const heldFront = await fleet.proxy([held]);
    try {
      payers.routeThrough(5, heldFront.url);
      await payers.checkOnce(5);
      expect(heldDeposit).toBe(true);
      await sleep(5_000);
      payers.routeThrough(5, null);
      await payers.checkOnce(5);
    } finally {
      fleet.facilitator.kill("SIGCONT");
      await heldFront.stop();
      await held.service.stop();
      await toFacilitator.close();
    }
    const heldOutcomes = payers.outcomes.filter((outcome) => outcome.payer === 5);
    // The check the held deposit paid: charged unknown (its settlement attempted, then refused
    // at the deadline); the payer's next check, once the deposit landed, is served over it.
    expect(heldOutcomes.map((o) => o.result.type)).toEqual(["unrecovered", "report"]);

    const books = await reconcileChannelOutcomes(payers, before);
    figures.push(
      `channel faults: 6 payers, ${payers.outcomes.length} channel checks (${afterRedis} through Redis killed 5 s, ${afterPostgres - afterRedis} through PostgreSQL frozen 7 s, then the facilitator frozen 22 s with vouchers unclaimed, ${unanswered} channel job(s) unanswered meanwhile, a deposit sent meanwhile answered ${depositOutcome?.result.type}; a deposit whose settlement the facilitator held answered ${heldOutcomes.map((o) => o.result.type).join(", then ")}): ${books.kinds}; ${books.charged} charged + ${books.recovered} recovered through /receipts, claimed in ${books.claims} transaction(s), each payer paid exactly its charged checks`,
    );
    await expect.poll(() => readyz(fleet.replicas[0] as Replica), { timeout: 20_000 }).toBe(200);
  });

  it("channel vouchers when a replica dies after charging one (nginx answers 502), when one drains on SIGTERM with vouchers unclaimed and when the facilitator dies as it journals a claim: the lost answer's report comes through /receipts, the next check resyncs, every voucher claimed once", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const payers = await channelPayersFor(3, 21);
    const before = {
      balances: await payers.balances(),
      payTo: await usdc(fleet.world.accounts.payTo.address),
    };
    await Promise.all(payers.clients.map((_, i) => payers.checkOnce(i)));
    for (const { result } of payers.outcomes) expect(result.type).toBe("report");

    // A lost answer: payer 0 through an nginx of A alone. A is stopped (SIGSTOP) the moment the
    // shared channel store shows its voucher charged, and killed unless the answer already left.
    const lostPayer = String(payers.accounts[0]?.address).toLowerCase();
    const channelRow = (
      await db.query<{ channel_id: string; channel_json: string }>(
        "SELECT channel_id, channel_json FROM presend_channels",
      )
    ).rows.find((row) => row.channel_json.toLowerCase().includes(lostPayer.slice(2)));
    expect(channelRow).toBeDefined();
    const chargedNow = async () =>
      (
        await db.query<{ charged: string }>(
          "SELECT channel_json::json->>'chargedCumulativeAmount' AS charged FROM presend_channels WHERE channel_id = $1",
          [channelRow?.channel_id],
        )
      ).rows[0]?.charged;
    const onlyA = await fleet.proxy([a]);
    payers.routeThrough(0, onlyA.url);
    let lost: ChannelOutcome | undefined;
    for (let attempt = 0; attempt < 10 && lost === undefined; attempt++) {
      const chargedBefore = await chargedNow();
      let answered = false;
      const check = payers.checkOnce(0).finally(() => {
        answered = true;
      });
      while (!answered && (await chargedNow()) === chargedBefore) await sleep(0);
      a.service.kill("SIGSTOP");
      if (answered) {
        a.service.kill("SIGCONT");
        await check;
        continue;
      }
      a.service.kill("SIGKILL");
      await check;
      lost = payers.outcomes.at(-1);
    }
    await onlyA.stop();
    payers.routeThrough(0, null);
    await fleet.restart(a);
    expect(lost?.result).toMatchObject({ type: "unrecovered", charged: "unknown" });
    // The payer's next check through the fleet: its channel resynced, charged for itself.
    const next = await payers.checkOnce(0);
    expect(next, JSON.stringify(next)).toMatchObject({ type: "report", charged: true });

    // SIGTERM drains B while the payers' vouchers land on both replicas, some not yet claimed:
    // B finishes what it took, the rest go to A (nginx's next upstream), all claimed once.
    const drained = (async () => {
      await sleep(1_500);
      b.service.kill("SIGTERM");
      await b.service.exited;
      await sleep(1_000);
    })();
    await payers.loop(drained);
    expect(b.service.process.exitCode).toBe(0);
    await fleet.restart(b);

    // The facilitator service killed the moment a claim (or the escrow's settle) is on its way to
    // the chain: its journal takes each transaction before it is broadcast, so the kill lands
    // between that write and the answer. Started again 2 s later on its journal: the manager's
    // next run claims what is left, nothing claimed twice.
    const journalFile = join(fleet.dir, "facilitator-journal.json");
    const journal = () => (existsSync(journalFile) ? readFileSync(journalFile, "utf8") : "");
    await Promise.all(payers.clients.map((_, i) => payers.checkOnce(i)));
    const journalBefore = journal();
    const deadline = Date.now() + 30_000;
    while (journal() === journalBefore) {
      if (Date.now() > deadline) throw new Error("no claim sent within 30 s");
      await sleep(1);
    }
    fleet.facilitator.kill("SIGKILL");
    await sleep(2_000);
    await fleet.restartFacilitator();
    await Promise.all(payers.clients.map((_, i) => payers.checkOnce(i)));

    const books = await reconcileChannelOutcomes(payers, before);
    figures.push(
      `channel lost answer and drain: ${payers.outcomes.length} channel checks by 3 payers (one answer lost to a replica killed after charging its voucher, nginx ${lost?.result.type === "unrecovered" ? "502" : "?"}; replica B drained on SIGTERM under vouchers; the facilitator SIGKILLed as it journaled a claim): ${books.kinds}; ${books.charged} charged + ${books.recovered} recovered through /receipts, claimed in ${books.claims} transaction(s)`,
    );
  });

  it("speed: paid checks per second through nginx with one and with two replicas, upstream requests per check with the cache warm", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    const targets = demoTargets();
    const upstream = async () =>
      (await metric(a, "presend_upstream_rpc_duration_seconds_count")) +
      (await metric(b, "presend_upstream_rpc_duration_seconds_count"));
    const oneReplica = await fleet.proxy([a]);
    const single = await paidLoad(oneReplica.url, 60, 2, targets);
    await oneReplica.stop();
    const upstreamBefore = await upstream();
    const both = await paidLoad(fleet.nginx.url, 60, 3, targets);
    const perCheck = ((await upstream()) - upstreamBefore) / 60;
    const refusals = [...single.results, ...both.results].filter((r) => r.status !== 200);
    const refused = refusals.length;
    figures.push(
      `speed: ${single.perSecond.toFixed(1)} paid checks/s with one replica, ${both.perSecond.toFixed(1)} with two (60 concurrent checks each, 5 payers); refused ${refused} of 120; ${perCheck.toFixed(2)} upstream requests per check with the shared cache warm`,
    );
    const [refusal] = refusals;
    if (refusal) figures.push(`first refusal: ${refusal.status} ${JSON.stringify(refusal.body)}`);
    expect(refused).toBe(0);
    expect(perCheck).toBe(0);
  });

  it("Redis killed under 40 concurrent paid checks and restarted 5 s later: every charged payer gets the report, nobody else is charged, limits hold per replica meanwhile", async () => {
    const [a] = fleet.replicas as [Replica, Replica];
    const from = await base.getBlockNumber({ cacheTime: 0 });
    const load = paidLoad(fleet.nginx.url, 40, 10, demoTargets());
    await firstTransferAfter(from);
    await fleet.redis.kill();
    const killedAt = Date.now();
    // While Redis is down: the free-route limit still holds, counted in each replica's memory.
    const freeClient = fetchFrom("127.0.10.200");
    const free: number[] = [];
    for (let i = 0; i < freeLimit + 2; i++) {
      const response = await freeClient(`${a.url}/validate?address=${demoTargets()[0]}`);
      free.push(response.status);
      await response.body?.cancel();
    }
    const ready = await fetch(`${a.url}/readyz`);
    await ready.body?.cancel();
    // Paid checks that arrive while Redis is down: refused before anything is verified.
    const whileDown = await paidLoad(fleet.nginx.url, 5, 13, demoTargets());
    await sleep(Math.max(0, 5_000 - (Date.now() - killedAt)));
    await fleet.redis.restart();
    const { results } = await load;
    const to = await base.getBlockNumber({ cacheTime: 0 });
    const used = await authorizationsUsed(from + 1n, to);
    const { count, codes } = tally(results);
    figures.push(
      `redis: killed under 40 concurrent paid checks, restarted 5 s later: ${count(200)} x 200, other answers ${[...codes].join(", ") || "none"}; ${used.length} on-chain settlements; while down, ${free.filter((s) => s === 200).length} of ${free.length} free requests to one replica passed a limit of ${freeLimit}, /readyz ${ready.status}, 5 new paid checks answered ${[...new Set(whileDown.results.map((r) => `${r.status} ${errorCode(r.body)}`))].join(", ")}`,
    );
    for (const refused of whileDown.results) {
      expect(refused.status).toBe(503);
      expect(errorCode(refused.body)).toBe("payment_record_unavailable");
    }
    expect(free).toEqual([...Array(freeLimit).fill(200), 429, 429]);
    expect(ready.status).toBe(503);
    // Nobody is told "internal error, nothing charged"; a refusal names a stable code.
    expect(count(500)).toBe(0);
    for (const result of results.filter((r) => r.status !== 200)) {
      expect(["payment_record_unavailable", "settlement_unknown"]).toContain(
        errorCode(result.body),
      );
    }
    // Charged = answered with the report (or told where to fetch it) = settled records.
    const delivered = results.filter((r) => r.status === 200).map((r) => r.tx as string);
    const unknown = results.filter((r) => errorCode(r.body) === "settlement_unknown").length;
    expect(used.length).toBe(delivered.length + unknown);
    for (const tx of delivered) expect(used.map((u) => u.tx)).toContain(tx);
    const records = await settledRecords(delivered);
    expect(records.size).toBe(delivered.length);
    for (const result of results.filter((r) => r.status === 200)) {
      expect(records.get(result.tx as string)).toEqual(result.body);
    }
    // Every payer told settlement_unknown gets the report where the answer said, as its payer,
    // once the record is decided: a charge the chain shows, with its record settled.
    const kept = await Promise.all(
      results
        .filter((r) => errorCode(r.body) === "settlement_unknown")
        .map((r) => fetchKeptReport(r.receipt ?? "")),
    );
    for (const fetched of kept) {
      expect(fetched.status).toBe(200);
      expect(used.map((u) => u.nonce)).toContain(fetched.nonce);
      expect((await settledRecords([fetched.tx ?? ""])).get(fetched.tx ?? "")).toEqual(
        fetched.report,
      );
    }
    figures.push(
      `redis: ${kept.length} payers told settlement_unknown fetched their report through /receipts`,
    );
    await expect.poll(() => readyz(a), { timeout: 20_000 }).toBe(200);
  });

  it("PostgreSQL frozen for 8 s under 40 concurrent paid checks: nobody waits on it, every charged payer gets the report or fetches it where the answer said, nobody else is charged, /readyz 503 meanwhile", async () => {
    const [a] = fleet.replicas as [Replica, Replica];
    const from = await base.getBlockNumber({ cacheTime: 0 });
    const started = performance.now();
    const load = paidLoad(fleet.nginx.url, 40, 15, demoTargets());
    // Frozen in the thick of it: some payments settled, others between record and settlement.
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const head = await base.getBlockNumber({ cacheTime: 0 });
      if (head > from && (await transfersToPayTo(from + 1n, head)).length >= 10) break;
      await sleep(20);
    }
    // Frozen, not stopped: connections stay open and nothing answers (a partition, a failover).
    fleet.postgres.freeze();
    const frozenAt = Date.now();
    const readyStarted = performance.now();
    const ready = await fetch(`${a.url}/readyz`);
    await ready.body?.cancel();
    const readySeconds = (performance.now() - readyStarted) / 1000;
    await sleep(Math.max(0, 8_000 - (Date.now() - frozenAt)));
    fleet.postgres.thaw();
    const { results } = await load;
    const seconds = (performance.now() - started) / 1000;
    // A payer told settlement_unknown was answered when the replica could not know (a record
    // write it could not confirm): charged or not, its settlement possibly landing after the
    // answer. Counted once the chain has gone quiet.
    const used = await authorizationsUsedOnceQuiet(from + 1n);
    const { count, codes } = tally(results);
    expect(ready.status).toBe(503);
    expect(readySeconds).toBeLessThan(10);
    // Every answer came while the load ran, none waited for the proxy's 120 s.
    expect(seconds).toBeLessThan(60);
    expect(count(500)).toBe(0);
    expect(count(0)).toBe(0);
    // A refusal is a 503 before payment or a 402 (the settlement not sent); anything that may
    // follow a charge says settlement_unknown and where the report is kept.
    for (const result of results.filter((r) => r.status !== 200)) {
      if (result.status === 402) continue;
      expect(["payment_record_unavailable", "settlement_unknown"]).toContain(
        errorCode(result.body),
      );
    }
    const delivered = results.filter((r) => r.status === 200);
    const unknown = results.filter((r) => errorCode(r.body) === "settlement_unknown");
    const usedNonces = new Set(used.map((u) => u.nonce));
    // Told settlement_unknown: charged, or never sent (it could not know which when it answered).
    const unknownCharged = unknown.filter((r) => usedNonces.has(nonceOf(r.receipt) ?? ""));
    // Charged = answered with the report + told where to fetch it; nobody refused was charged.
    expect(used.length).toBe(delivered.length + unknownCharged.length);
    for (const result of delivered) expect(used.map((u) => u.tx)).toContain(result.tx);
    // Each charged payer gets (or gets again) the report where the answer said it is kept: a
    // record whose mark was lost with the database is decided from the chain when asked.
    const keptAt = (result: PaidResult) => {
      if (result.status !== 200) return result.receipt ?? "";
      // A paid 200 names its transaction; the chain names the payer and nonce it used.
      const spent = used.find((u) => u.tx === result.tx);
      return `${fleet.nginx.url}/receipts/${spent?.payer}/${spent?.nonce}`;
    };
    // Each payer from an address of its own: forty fetches from one would run out the free limit.
    const charged = [...delivered, ...unknownCharged];
    const kept = await Promise.all(
      charged.map((result, index) =>
        fetchKeptReport(keptAt(result), fetchFrom(`127.0.16.${index + 1}`)),
      ),
    );
    for (const [index, fetched] of kept.entries()) {
      expect(fetched.status).toBe(200);
      expect(used.map((u) => u.nonce)).toContain(fetched.nonce);
      const answered = charged[index];
      if (answered?.status === 200) expect(fetched.report).toEqual(answered.body);
    }
    const records = await settledRecords(used.map((u) => u.tx));
    expect(records.size).toBe(used.length);
    figures.push(
      `postgres: frozen 8 s under 40 concurrent paid checks: ${count(200)} x 200, other answers ${[...codes].join(", ") || "none"}; ${used.length} on-chain settlements, every one with its settled record and its report fetched by its payer; /readyz ${ready.status} in ${readySeconds.toFixed(1)} s; the load over in ${seconds.toFixed(1)} s`,
    );
    await expect.poll(() => readyz(a), { timeout: 20_000 }).toBe(200);
  });

  it("the facilitator service frozen for 10 s under 30 concurrent paid checks: a verification it leaves unanswered is refused at its deadline (503, nothing charged), a settlement it holds is answered settlement_unknown and its report fetched once it wakes; charged = reports delivered or fetched", async () => {
    // A replica of its own with short deadlines (the defaults are 10 s and 20 s), behind an
    // nginx of its own, so the fleet's other replicas keep theirs.
    const replica = await fleet.spawnReplica({
      FACILITATOR_VERIFY_TIMEOUT_MS: "3000",
      FACILITATOR_SETTLE_TIMEOUT_MS: "6000",
    });
    const front = await fleet.proxy([replica]);
    try {
      const from = await base.getBlockNumber({ cacheTime: 0 });
      const started = performance.now();
      const load = paidLoad(front.url, 30, 17, demoTargets());
      await firstTransferAfter(from);
      // Frozen, not stopped: its connections stay open and nothing answers.
      fleet.facilitator.kill("SIGSTOP");
      const frozenAt = Date.now();
      // Paid checks that arrive while it is frozen: refused once the verification's deadline passes.
      const whileFrozen = await paidLoad(front.url, 5, 18, demoTargets());
      const frozenWait = (Date.now() - frozenAt) / 1000;
      await sleep(Math.max(0, 10_000 - (Date.now() - frozenAt)));
      fleet.facilitator.kill("SIGCONT");
      const { results } = await load;
      const seconds = (performance.now() - started) / 1000;
      // It settles what it was holding once it wakes: wait for the chain to go quiet.
      const used = await authorizationsUsedOnceQuiet(from + 1n);
      const all = [...results, ...whileFrozen.results];
      const { count, codes } = tally(all);
      for (const refused of whileFrozen.results) {
        expect(refused.status).toBe(503);
        expect(errorCode(refused.body)).toBe("facilitator_unavailable");
      }
      // Everything answered while the load ran: nobody waited out the official client's 90 s.
      expect(frozenWait).toBeLessThan(30);
      expect(seconds).toBeLessThan(60);
      expect(count(500)).toBe(0);
      expect(count(0)).toBe(0);
      for (const result of all.filter((r) => r.status !== 200)) {
        expect(["503 facilitator_unavailable", "502 settlement_unknown"]).toContain(
          `${result.status} ${errorCode(result.body)}`,
        );
      }
      const delivered = all.filter((r) => r.status === 200);
      const unknown = all.filter((r) => errorCode(r.body) === "settlement_unknown");
      const usedNonces = new Set(used.map((u) => u.nonce));
      const unknownCharged = unknown.filter((r) => usedNonces.has(nonceOf(r.receipt) ?? ""));
      // Charged = answered with the report + told settlement_unknown and charged after; every
      // 503 was refused before anything was sent.
      expect(used.length).toBe(delivered.length + unknownCharged.length);
      for (const result of delivered) expect(used.map((u) => u.tx)).toContain(result.tx);
      // Each one charged after it was answered gets the report where the answer said, as its payer.
      const kept = await Promise.all(
        unknownCharged.map((r, index) =>
          fetchKeptReport(r.receipt ?? "", fetchFrom(`127.0.19.${index + 1}`)),
        ),
      );
      for (const fetched of kept) {
        expect(fetched.status).toBe(200);
        expect(usedNonces).toContain(fetched.nonce);
      }
      const records = await settledRecords(used.map((u) => u.tx));
      expect(records.size).toBe(used.length);
      figures.push(
        `facilitator: frozen 10 s under 30 concurrent paid checks (+5 sent while frozen, each refused in ${frozenWait.toFixed(1)} s at most): ${count(200)} x 200, other answers ${[...codes].join(", ") || "none"}; ${used.length} on-chain settlements, each with its settled record; ${kept.length} payers told settlement_unknown were charged once it woke and fetched their report; the load over in ${seconds.toFixed(1)} s`,
      );
      await expect.poll(() => readyz(replica), { timeout: 20_000 }).toBe(200);
    } finally {
      fleet.facilitator.kill("SIGCONT");
      await front.stop();
      await replica.service.stop();
    }
  });

  it("a replica killed after settlement (nginx answers 502): the retry with the same payment id gets the report once the dead replica's lease expires, charged once", async () => {
    const [a] = fleet.replicas as [Replica, Replica];
    const onlyA = await fleet.proxy([a]);
    const payer = privateKeyToAccount(fleet.payers[3] as Hex);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const httpClient = new x402HTTPClient(client);
    const body = JSON.stringify({ address: demoTargets()[2], chain: "base" });
    const post = (url: string, headers: Record<string, string> = {}) =>
      fetchFrom("127.0.11.1")(`${url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    const paymentId = generatePaymentId();
    const signedWithId = async (url: string) => {
      const challenge = await post(url);
      const required = httpClient.getPaymentRequiredResponse(
        (name) => challenge.headers.get(name),
        await challenge.json(),
      );
      appendPaymentIdentifierToExtensions(required.extensions ?? {}, paymentId);
      return httpClient.encodePaymentSignatureHeader(
        await httpClient.createPaymentPayload(required),
      );
    };
    const headers = await signedWithId(onlyA.url);
    const before = await usdc(payer.address);
    // Settlements wait in the mempool for the next block (every 3 s): the window to kill in.
    await base.request({ method: "evm_setAutomine" as never, params: [false] as never });
    await base.request({ method: "evm_setIntervalMining" as never, params: [3] as never });
    let lost: Response;
    try {
      const answer = post(onlyA.url, headers);
      const deadline = Date.now() + 30_000;
      while (Number((await txpoolStatus()).pending) === 0) {
        if (Date.now() > deadline) throw new Error("no settlement broadcast within 30 s");
        await sleep(20);
      }
      // The facilitator has broadcast the settlement: replica A dies before it can answer.
      a.service.kill("SIGKILL");
      lost = await answer;
    } finally {
      // A block every second again (anvil cannot go back to mixed mining over RPC; automine
      // alone would leave the head's timestamp stale between transactions, and the replicas'
      // clock check would read that as a clock running ahead).
      await base.request({ method: "evm_setIntervalMining" as never, params: [1] as never });
    }
    expect(lost.status).toBe(502);
    await lost.body?.cancel();
    await expect
      .poll(async () => before - (await usdc(payer.address)), { timeout: 10_000 })
      .toBe(price);

    // The payer retries the same payment through the fleet (replica B), as @presend/client does.
    const retryHeaders = await signedWithId(fleet.nginx.url);
    const started = Date.now();
    const answers: string[] = [];
    let retry = await post(fleet.nginx.url, retryHeaders);
    while (retry.status === 409 && Date.now() - started < 20_000) {
      answers.push(errorCode(await retry.json()) ?? "409");
      await sleep(250);
      retry = await post(fleet.nginx.url, retryHeaders);
    }
    const waited = Date.now() - started;
    figures.push(
      `lost answer: replica killed after the settlement was broadcast, nginx answered ${lost.status}; the retry with the same payment id got ${retry.status} after ${(waited / 1000).toFixed(1)} s (${answers.length} x 409 ${[...new Set(answers)].join(", ")} while the dead replica's lease ran out), charged once`,
    );
    expect(retry.status).toBe(200);
    const report = await retry.json();
    const tx = decodePaymentResponseHeader(retry.headers.get("payment-response") ?? "").transaction;
    const records = await settledRecords([tx.toLowerCase()]);
    expect(records.get(tx.toLowerCase())).toEqual(report);
    expect(waited).toBeLessThan(leaseTtlMs + 5_000);
    expect(before - (await usdc(payer.address))).toBe(price);
    await onlyA.stop();
    await fleet.restart(a);
  });

  it("junk payment headers count against the challenge limit", async () => {
    const junk = fetchFrom("127.0.12.1");
    const statuses: number[] = [];
    for (let i = 0; i <= challengeLimit; i++) {
      const response = await junk(`${fleet.nginx.url}/check`, {
        method: "POST",
        headers: { "content-type": "application/json", "payment-signature": `junk-${i}` },
        body: JSON.stringify({ address: demoTargets()[0], chain: "base" }),
      });
      statuses.push(response.status);
      await response.body?.cancel();
    }
    figures.push(
      `junk headers: ${statuses.filter((s) => s === 402).length} x 402 then ${statuses.at(-1)} (challenge limit ${challengeLimit})`,
    );
    expect(statuses).toEqual([...Array(challengeLimit).fill(402), 429]);
  });

  it("a replica started with another payTo refuses to start; the facilitator service answers only the fleet's token", async () => {
    const otherPayTo = privateKeyToAccount(generatePrivateKey()).address;
    await expect(fleet.spawnReplica({ PAY_TO: otherPayTo })).rejects.toThrow(
      /another replica of this fleet runs with attestation key presend-\d{4}-\d{2} and payTo/,
    );
    const settle = await fetch(`${fleet.facilitator.url}/settle`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(settle.status).toBe(401);
    expect(errorCode(await settle.json())).toBe("facilitator_unauthorized");
    figures.push(
      "identity: a replica with another payTo refused to start; the facilitator service answered 401 facilitator_unauthorized without the fleet's token",
    );
  });

  it("one replica killed (SIGKILL) during the load: every settled payment still has its record and report", async () => {
    const [a] = fleet.replicas as [Replica, Replica];
    const targets = [...demoTargets(), privateKeyToAccount(generatePrivateKey()).address];
    const from = await base.getBlockNumber({ cacheTime: 0 });
    const load = paidLoad(fleet.nginx.url, 40, 4, targets);
    // Kill as settlements are under way: the first transfer to payTo is on chain.
    const deadline = Date.now() + 30_000;
    while (true) {
      const head = await base.getBlockNumber({ cacheTime: 0 });
      if (head > from && (await transfersToPayTo(from + 1n, head)).length > 0) break;
      if (Date.now() > deadline) throw new Error("no settlement within 30 s");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    a.service.kill("SIGKILL");
    const { results } = await load;
    const to = await base.getBlockNumber({ cacheTime: 0 });
    const used = await authorizationsUsed(from + 1n, to);
    const rows = await db.query<{
      payer: string;
      nonce: string;
      status: string;
      report_json: string;
    }>("SELECT payer, nonce, status, report_json FROM payment_records WHERE nonce = ANY($1)", [
      used.map((entry) => entry.nonce),
    ]);
    const byKey = new Map(rows.rows.map((row) => [`${row.payer}:${row.nonce}`, row]));
    const statuses = results.map((result) => result.status);
    const count = (status: number) => statuses.filter((s) => s === status).length;
    figures.push(
      `kill: replica A SIGKILLed under 40 concurrent paid checks: ${count(200)} x 200, ${statuses.length - count(200)} other (${[...new Set(statuses)].join(", ")}); ${used.length} on-chain settlements, ${used.filter((u) => byKey.get(`${u.payer}:${u.nonce}`)?.report_json).length} with their record and report (${rows.rows.filter((r) => r.status === "settled").length} settled, ${rows.rows.filter((r) => r.status !== "settled").length} awaiting the reconciler)`,
    );
    for (const entry of used) {
      const row = byKey.get(`${entry.payer}:${entry.nonce}`);
      expect(row, `record of ${entry.tx}`).toBeDefined();
      expect(JSON.parse(row?.report_json ?? "null")).toMatchObject({ verdict: expect.any(Object) });
    }
    for (const result of results.filter((r) => r.status === 200)) {
      expect(used.map((u) => u.tx)).toContain(result.tx);
    }
  });

  it("attestation key rotation: a report paid under the old key, fetched again through /receipts by @presend/client after the rotation, is verified; the same client pays under the new key, following the old key's statement, and still verifies the first report", async () => {
    const [a, b] = fleet.replicas as [Replica, Replica];
    // Pay through the fleet as a client pinning the current key.
    if (a.service.process.exitCode !== null || a.service.process.signalCode !== null) {
      await fleet.restart(a);
    }
    const payer = privateKeyToAccount(fleet.payers[4] as Hex);
    const pinStore = createMemoryPinStore();
    /** The client as the payer runs it: its origin is the fleet's, its requests go to `url`. */
    const clientThrough = (url: string) =>
      createPresendClient({
        url: fleet.nginx.url,
        signer: payer,
        pinStore,
        fetch: async (input, init) => {
          const request = input instanceof Request ? input : new Request(input, init);
          const body = ["GET", "HEAD"].includes(request.method)
            ? undefined
            : await request.arrayBuffer();
          return fetch(request.url.replace(fleet.nginx.url, url), {
            method: request.method,
            headers: request.headers,
            redirect: "manual",
            ...(body && { body }),
          });
        },
      });
    const paid = await clientThrough(a.url).check({ address: demoTargets()[3] as `0x${string}` });
    expect(paid.type).toBe("report");
    if (paid.type !== "report") return;
    const oldKey = JSON.parse(readFileSync(join(fleet.dir, devAttestationKeyFile), "utf8"));

    // The operator rotates: every old replica stopped, the fleet's identity let go, a new key
    // and the old one listed as previous with its statement.
    await a.service.stop();
    await b.service.stop();
    await fleet.redis.restart();
    // presend's rotation tool: the new key, and the old one listed with its statement over it.
    const newKeyFile = join(fleet.dir, "attestation-key-2099.json");
    const previousFile = join(fleet.dir, "previous-keys.json");
    const rotation = await rotateAttestationKey({
      keyFile: join(fleet.dir, devAttestationKeyFile),
      outFile: newKeyFile,
      previousKeysFile: previousFile,
      at: new Date(),
      kid: "presend-2099-01",
    });
    const rotated = await fleet.spawnReplica({
      ATTESTATION_KEY_FILE: newKeyFile,
      ATTESTATION_PREVIOUS_KEYS_FILE: previousFile,
    });
    const discovery = await (await fetch(`${rotated.url}/.well-known/x402`)).json();
    expect(discovery.attestation.key.kid).toBe("presend-2099-01");
    expect(discovery.previousAttestationKeys[0].key.kid).toBe(oldKey.kid);
    expect(discovery.previousAttestationKeys[0].statement).toBe(rotation.retired.statement);

    const fetched = await clientThrough(rotated.url).receipt(paid.settlement.transaction);
    expect(fetched).toMatchObject({ type: "report", signature: "verified", recovered: true });
    // The same client pays again under the new key: it follows the old key's statement.
    const followed = await clientThrough(rotated.url).check({
      address: demoTargets()[3] as `0x${string}`,
    });
    const pin = await pinStore.get(new URL(fleet.nginx.url).origin);
    const refetched = await clientThrough(rotated.url).receipt(paid.settlement.transaction);
    figures.push(
      `rotation: paid under ${oldKey.kid}, the key rotated to presend-2099-01 with a statement; the report fetched again through /receipts by @presend/client: ${fetched.type}${"signature" in fetched ? ` (${fetched.signature})` : ""}; the same client paid again: ${followed.type}, pin now ${pin?.jwk.kid} (${pin?.previous?.length ?? 0} previous), the first report fetched again: ${refetched.type}; discovery lists ${discovery.previousAttestationKeys.length} previous key`,
    );
    expect(followed).toMatchObject({ type: "report", signature: "verified", receipt: "verified" });
    expect(pin).toMatchObject({
      jwk: { kid: "presend-2099-01" },
      previous: [{ jwk: { kid: oldKey.kid } }],
    });
    expect(refetched).toMatchObject({ type: "report", signature: "verified", recovered: true });
    await rotated.service.stop();
    // The rest of the file runs on the fleet as it was.
    await fleet.redis.restart();
    await fleet.restart(a);
    await fleet.restart(b);
  });

  it("SIGTERM drains: paid checks in flight on a replica finish, it exits 0, every settlement recorded", async () => {
    const [, b] = fleet.replicas as [Replica, Replica];
    const from = await base.getBlockNumber({ cacheTime: 0 });
    const challenged = () =>
      metric(b, "presend_http_requests_total", 'route="/check",status="402"');
    const challengesBefore = await challenged();
    const load = paidLoad(b.url, 10, 7, demoTargets());
    // Once every client has its challenge, the paid requests are on their way: stop then.
    const deadline = Date.now() + 30_000;
    while ((await challenged()) < challengesBefore + 10 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    b.service.kill("SIGTERM");
    const { results } = await load;
    await b.service.exited;
    const to = await base.getBlockNumber({ cacheTime: 0 });
    const used = await authorizationsUsed(from + 1n, to);
    const records = await settledRecords(used.map((entry) => entry.tx));
    figures.push(
      `drain: SIGTERM under 10 paid checks: ${results.filter((r) => r.status === 200).length} x 200, ${used.length} settlements, ${records.size} settled records, exit code ${b.service.process.exitCode}`,
    );
    expect(b.service.process.exitCode).toBe(0);
    expect(records.size).toBe(used.length);
    for (const result of results) {
      // Either it was answered in full, or it never got in (connection refused: not charged).
      expect([200, 0]).toContain(result.status);
    }
  });
});
