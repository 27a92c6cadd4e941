import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { World } from "@presend/devnet";
import { devnetClient, mintStablecoin } from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { Engine } from "../src/engine/createEngine";
import { createMemoryPaymentRecords } from "../src/paymentRecords/createMemoryPaymentRecords";
import { openSqlitePaymentRecords } from "../src/paymentRecords/openSqlitePaymentRecords";
import { samplePaymentRecord } from "../src/paymentRecords/samplePaymentRecord";
import { type PaidStack, startPaidStack } from "../src/payments/testing/startPaidStack";
import { percentile } from "./percentiles";

export type Quantiles = { p50: number; p95: number };

export type PaidCheckBench = {
  samples: number;
  /** Whole paid POST /check (verify + engine + settle + receipt), client-side. */
  paidMs: Quantiles;
  verifyMs: Quantiles;
  engineMs: Quantiles;
  settleMs: Quantiles;
  /** The engine alone on the same address, outside HTTP. */
  engineAloneMs: Quantiles;
  /** Signing the EIP-3009 authorization (client side, not in paidMs). */
  signMs: Quantiles;
  /** paid / engine alone. */
  paidVsEngine: Quantiles;
};

const quantiles = (values: number[]): Quantiles => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
});

/**
 * A paid /check end to end on the local world (official client, in-process facilitator settling
 * on local Base), broken down into verify, engine and settle, against the engine alone.
 * @example const figures = await benchPaidCheck(world, { samples: 50 });
 */
export async function benchPaidCheck(
  world: World,
  options: { samples: number },
): Promise<PaidCheckBench> {
  let verify = 0;
  let settle = 0;
  let engineInRoute = 0;
  const timedEngine = (engine: Engine): Engine => ({
    async check(input) {
      const start = performance.now();
      try {
        return await engine.check(input);
      } finally {
        engineInRoute = performance.now() - start;
      }
    },
    deep: (input) => engine.deep(input),
  });
  const stack = await startPaidStack({
    world,
    wrapEngine: timedEngine,
    onTiming: ({ phase, ms }) => {
      if (phase === "verify") verify = ms;
      else settle = ms;
    },
  });
  try {
    const payer = privateKeyToAccount(world.accounts.payer.privateKey);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    const http = new x402HTTPClient(client);
    const address = world.accounts.payTo.address;
    const post = (headers: Record<string, string> = {}) =>
      stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ address }),
      });
    const challenge = await post();
    const paymentRequired = http.getPaymentRequiredResponse((name) => challenge.headers.get(name));
    const rows: Record<keyof Omit<PaidCheckBench, "samples" | "paidVsEngine">, number[]> = {
      paidMs: [],
      verifyMs: [],
      engineMs: [],
      settleMs: [],
      engineAloneMs: [],
      signMs: [],
    };
    const ratios: number[] = [];
    for (let index = 0; index < options.samples + 3; index++) {
      const signStart = performance.now();
      const payload = await client.createPaymentPayload(paymentRequired);
      const signMs = performance.now() - signStart;
      // Encoding the header is the payer's work, untimed like its signature.
      const header = encodePaymentSignatureHeader(payload);
      const start = performance.now();
      const response = await post({ "PAYMENT-SIGNATURE": header });
      const paidMs = performance.now() - start;
      if (response.status !== 200) throw new Error(`paid /check answered ${response.status}`);
      const aloneStart = performance.now();
      await stack.engine.check({ address, chain: "base" });
      const engineAloneMs = performance.now() - aloneStart;
      if (index < 3) continue; // warm-up
      rows.paidMs.push(paidMs);
      rows.verifyMs.push(verify);
      rows.engineMs.push(engineInRoute);
      rows.settleMs.push(settle);
      rows.engineAloneMs.push(engineAloneMs);
      rows.signMs.push(signMs);
      ratios.push(paidMs / engineAloneMs);
    }
    return {
      samples: options.samples,
      paidMs: quantiles(rows.paidMs),
      verifyMs: quantiles(rows.verifyMs),
      engineMs: quantiles(rows.engineMs),
      settleMs: quantiles(rows.settleMs),
      engineAloneMs: quantiles(rows.engineAloneMs),
      signMs: quantiles(rows.signMs),
      paidVsEngine: quantiles(ratios),
    };
  } finally {
    await stack.stop();
  }
}

export type ConcurrencyLevel = {
  concurrency: number;
  requests: number;
  /** Paid checks answered 200 per second of wall time. */
  paidPerSecond: number;
  /** Share of paid requests not answered 200 (goal 0). */
  refusedShare: number;
  latencyMs: Quantiles;
};

export type PaidConcurrencyBench = {
  levels: ConcurrencyLevel[];
  /** Sequential paid /check with the SQLite write-ahead record vs with an in-memory one. */
  withRecordMs: Quantiles;
  withoutRecordMs: Quantiles;
  /** withRecord / withoutRecord, per quantile. */
  recordRatio: Quantiles;
  /** The store's own work per payment (begin, lookups, settle) on SQLite, alone. */
  recordOpsMs: Quantiles;
  /** recordOps p50 / paid request p50. */
  recordOpsShare: number;
};

/**
 * Paid /check under load on the local world: `concurrency` workers each send paid requests one
 * after another (official client, one payer per worker, in-process facilitator), per level the
 * paid checks per second, the share refused and p50/p95; then the cost of the write-ahead
 * record, as a ratio to the same paid request with an in-memory store.
 * @example const figures = await benchPaidConcurrency(world, { levels: [1, 10, 50], perWorker: 4 });
 */
export async function benchPaidConcurrency(
  world: World,
  options: { levels: number[]; perWorker: number; samples: number },
): Promise<PaidConcurrencyBench> {
  const base = devnetClient("base", world.chains.base.rpcUrl);
  const faucet = privateKeyToAccount(world.accounts.faucet.privateKey);
  const workers = Math.max(...options.levels);
  const payers = Array.from({ length: workers }, () => privateKeyToAccount(generatePrivateKey()));
  for (const payer of payers) {
    await mintStablecoin(base, {
      token: chains.base.usdc.address,
      minter: faucet,
      to: payer.address,
      amount: 100_000_000n,
    });
  }
  const clients = payers.map((payer) => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    return client;
  });
  const address = world.accounts.payTo.address;

  const runPaid = async (stack: PaidStack, client: x402Client) => {
    const post = (headers: Record<string, string> = {}) =>
      stack.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ address }),
      });
    const http = new x402HTTPClient(client);
    const challenge = await post();
    const required = http.getPaymentRequiredResponse((name) => challenge.headers.get(name));
    const payload = await client.createPaymentPayload(required);
    const header = encodePaymentSignatureHeader(payload);
    const start = performance.now();
    const response = await post({ "PAYMENT-SIGNATURE": header });
    await response.arrayBuffer();
    return { ms: performance.now() - start, ok: response.status === 200 };
  };

  const levels: ConcurrencyLevel[] = [];
  const stack = await startPaidStack({ world });
  try {
    await runPaid(stack, clients[0] as x402Client);
    for (const concurrency of options.levels) {
      const latencies: number[] = [];
      let refused = 0;
      const started = performance.now();
      await Promise.all(
        clients.slice(0, concurrency).map(async (client) => {
          for (let i = 0; i < options.perWorker; i++) {
            const result = await runPaid(stack, client);
            latencies.push(result.ms);
            if (!result.ok) refused++;
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const requests = concurrency * options.perWorker;
      levels.push({
        concurrency,
        requests,
        paidPerSecond: (requests - refused) / seconds,
        refusedShare: refused / requests,
        latencyMs: quantiles(latencies),
      });
    }
  } finally {
    await stack.stop();
  }

  // The record's cost: the same sequential paid request, alternating the two stacks.
  const withRecord = await startPaidStack({ world });
  const withoutRecord = await startPaidStack({ world, records: createMemoryPaymentRecords() });
  const withMs: number[] = [];
  const withoutMs: number[] = [];
  try {
    const client = clients[0] as x402Client;
    for (let i = 0; i < options.samples + 3; i++) {
      const a = await runPaid(withRecord, client);
      const b = await runPaid(withoutRecord, client);
      if (!a.ok || !b.ok) throw new Error("a paid /check was refused in the record bench");
      if (i < 3) continue;
      withMs.push(a.ms);
      withoutMs.push(b.ms);
    }
  } finally {
    await withRecord.stop();
    await withoutRecord.stop();
  }

  const recordOps = await timeRecordOps(options.samples * 4);
  const withQ = quantiles(withMs);
  const withoutQ = quantiles(withoutMs);
  return {
    levels,
    withRecordMs: withQ,
    withoutRecordMs: withoutQ,
    recordRatio: { p50: withQ.p50 / withoutQ.p50, p95: withQ.p95 / withoutQ.p95 },
    recordOpsMs: recordOps,
    recordOpsShare: recordOps.p50 / withQ.p50,
  };
}

/** One payment's store work on SQLite (fsync'd WAL): begin, two lookups, settle. */
async function timeRecordOps(samples: number): Promise<Quantiles> {
  const dir = mkdtempSync(join(tmpdir(), "presend-bench-records-"));
  const records = openSqlitePaymentRecords(join(dir, "payments.sqlite"));
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const record = samplePaymentRecord(i + 1);
      const start = performance.now();
      await records.byAuthorization(record);
      await records.begin(record);
      await records.markSettled(record, `0x${(i + 1).toString(16).padStart(64, "0")}`);
      await records.byAuthorization(record);
      times.push(performance.now() - start);
    }
  } finally {
    await records.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return quantiles(times);
}
