import type { World } from "@presend/devnet";
import { devnetAccounts, devnetClient, devnetPrivateKey, mintStablecoin } from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { toClientEvmSigner } from "@x402/evm";
import { BatchSettlementEvmScheme as ChannelClientScheme } from "@x402/evm/batch-settlement/client";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { type TypedDataDefinition, verifyTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import {
  type PaidStack,
  type PaidStackOptions,
  startPaidStack,
} from "../src/payments/testing/startPaidStack";
import { proxyEachChain, startCountingProxy } from "./countingProxy";
import type { Quantiles } from "./paidCheck";
import { percentile } from "./percentiles";

export type ChannelPaidCheckBench = {
  samples: number;
  /** Paid POST /check with a session-key voucher over an open channel (client-side). */
  channelMs: Quantiles;
  /** The same request paid with `exact` (an EIP-3009 transfer settled in the request). */
  exactMs: Quantiles;
  /** The engine alone on the same address, outside HTTP. */
  engineAloneMs: Quantiles;
  /**
   * The CPU time the process spent (all its threads) on the voucher-paid request and on the
   * engine alone: what the request costs the machine, which other load on it barely moves.
   */
  channelCpuMs: Quantiles;
  engineAloneCpuMs: Quantiles;
  channelVsEngine: Quantiles;
  exactVsEngine: Quantiles;
  /** Channel p50 minus engine-alone p50: the milliseconds the payment adds to a check. */
  channelAddedMs: number;
  /**
   * One voucher's signature checked alone, as the official server scheme checks every voucher
   * (viem's verifyTypedData over the very typed data the session key signed): a cost no voucher-
   * paid request can avoid, timed over the vouchers the channel runs paid.
   */
  voucherSignatureMs: Quantiles;
  /**
   * (engine alone + that one signature check) / engine alone, at p50: the least the channel's
   * ratio can be on this machine, with nothing else of the payment counted.
   */
  signatureFloorVsEngine: number;
};

export type ChannelPaidCheckBehindDelayBench = ChannelPaidCheckBench & {
  /** How long every chain RPC round trip was held, the engine's and the payments' alike. */
  delayMs: number;
  /**
   * Requests reaching the payments' Base RPC while a voucher-paid /check runs, per check: counted
   * over vouchers paid apart once that RPC went quiet, so another payment's reads do not count.
   */
  paymentRpcRequestsPerVoucher: number;
};

export type ChannelLoadBench = {
  payers: number;
  requests: number;
  channel: { paidPerSecond: number; refusedShare: number; latencyMs: Quantiles };
  exact: { paidPerSecond: number; refusedShare: number; latencyMs: Quantiles };
};

/** Vouchers paid apart, their requests to the payments' RPC counted. */
const voucherOnlyRuns = 10;

const quantiles = (values: number[]): Quantiles => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
});

/**
 * The address every channel case checks: a seeded wallet with history no bench adds to. The payee
 * would not do: every `exact` payment (here and in the paid case before) lengthens its history,
 * so the engine's time, and the ratio against it, would depend on what ran first.
 */
const checkedAddress = devnetAccounts.activeOnBase.address;

/** A voucher as its session key signed it: the typed data, the key's address, the signature. */
type SignedVoucher = TypedDataDefinition & { address: `0x${string}`; signature: `0x${string}` };

/**
 * A payer of its own with USDC from the faucet and an x402 client for one scheme; on a channel,
 * `onVoucher` sees every voucher its session key signs.
 */
async function payerClient(
  world: World,
  scheme: "exact" | "channel",
  deposit: bigint,
  onVoucher: (voucher: SignedVoucher) => void = () => {},
) {
  const payer = privateKeyToAccount(generatePrivateKey());
  const base = devnetClient("base", world.chains.base.rpcUrl);
  await mintStablecoin(base, {
    token: chains.base.usdc.address,
    minter: privateKeyToAccount(world.accounts.faucet.privateKey),
    to: payer.address,
    amount: 1_000_000_000n,
  });
  const client = new x402Client();
  if (scheme === "exact") registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
  else {
    const sessionKey = privateKeyToAccount(generatePrivateKey());
    const voucherSigner = toClientEvmSigner(sessionKey);
    client.register(
      "eip155:8453",
      new ChannelClientScheme(toClientEvmSigner(payer), {
        voucherSigner: {
          ...voucherSigner,
          signTypedData: async (message) => {
            const signature = await voucherSigner.signTypedData(message);
            onVoucher({
              ...(message as TypedDataDefinition),
              address: sessionKey.address,
              signature,
            });
            return signature;
          },
        },
        depositStrategy: () => deposit,
      }),
    );
  }
  return new x402HTTPClient(client);
}

/**
 * One paid /check: the challenge, the signing and the header's encoding untimed, the paid request
 * timed; with
 * `requestsSoFar`, the requests it counts that arrived while the paid request ran.
 */
async function payOnce(
  stack: PaidStack,
  http: x402HTTPClient,
  address: string,
  requestsSoFar: () => number = () => 0,
) {
  const post = (headers: Record<string, string> = {}) =>
    stack.app.request("/check", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ address }),
    });
  const challenge = await post();
  const required = http.getPaymentRequiredResponse((name) => challenge.headers.get(name));
  const payload = await http.createPaymentPayload(required);
  // Encoding the header is the payer's work, untimed like its signature.
  const headers = http.encodePaymentSignatureHeader(payload);
  const requestsBefore = requestsSoFar();
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  const response = await post(headers);
  const ms = performance.now() - start;
  const cpuMs = cpuMsSince(cpuStart);
  const requests = requestsSoFar() - requestsBefore;
  await http.processPaymentResult(payload, (name) => response.headers.get(name), response.status);
  await response.arrayBuffer();
  return { ms, cpuMs, requests, ok: response.status === 200 };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

async function channelStack(
  world: World,
  endpoints: Pick<PaidStackOptions, "rpcUrls" | "paymentRpcUrl"> = {},
): Promise<PaidStack> {
  return startPaidStack({
    world,
    receiverAuthorizerKey: devnetPrivateKey("bench: receiver authorizer"),
    ...endpoints,
  });
}

/**
 * A paid /check over an open batch-settlement channel (a voucher, no settlement in the request)
 * against the engine alone and against `exact`, alternating in one stack that offers both.
 * @example const figures = await benchChannelPaidCheck(world, { samples: 50 });
 */
export async function benchChannelPaidCheck(
  world: World,
  options: { samples: number },
): Promise<ChannelPaidCheckBench> {
  const stack = await channelStack(world);
  try {
    // Straight against the anvils, nothing counted: no proxy in this process taxes the figures.
    const { paymentRpcRequestsPerVoucher: _notCounted, ...figures } = await compareChannelPaidCheck(
      world,
      stack,
      options,
    );
    return figures;
  } finally {
    await stack.stop();
  }
}

/**
 * The same comparison with every chain RPC round trip held `delayMs` (a public RPC's shape):
 * the engine's five chains behind proxies forwarding to the world's anvils, and the Base RPC the
 * payments use behind one of its own, held alike, whose requests during each voucher-paid
 * request are counted (what a voucher reads from the chain, observed rather than assumed).
 * @example const figures = await benchChannelPaidCheckBehindDelay(world, { samples: 50, delayMs: 30 });
 */
export async function benchChannelPaidCheckBehindDelay(
  world: World,
  options: { samples: number; delayMs: number },
): Promise<ChannelPaidCheckBehindDelayBench> {
  const chainProxies = await proxyEachChain(world, { delayMs: options.delayMs });
  const paymentProxy = await startCountingProxy(world.chains.base.rpcUrl, {
    delayMs: options.delayMs,
  });
  try {
    const stack = await channelStack(world, {
      rpcUrls: chainProxies.rpcUrls,
      paymentRpcUrl: paymentProxy.url,
    });
    try {
      const figures = await compareChannelPaidCheck(world, stack, {
        samples: options.samples,
        paymentRequests: paymentProxy.count,
      });
      return { ...figures, delayMs: options.delayMs };
    } finally {
      await stack.stop();
    }
  } finally {
    await paymentProxy.close();
    await chainProxies.close();
  }
}

/** Voucher, `exact` and the engine alone in turn on one stack, after an untimed deposit. */
async function compareChannelPaidCheck(
  world: World,
  stack: PaidStack,
  options: { samples: number; paymentRequests?: () => number },
): Promise<ChannelPaidCheckBench & { paymentRpcRequestsPerVoucher: number }> {
  const rounds = options.samples + 3;
  const vouchersAlone = options.paymentRequests ? voucherOnlyRuns : 0;
  const vouchers: SignedVoucher[] = [];
  const channel = await payerClient(
    world,
    "channel",
    BigInt(rounds + vouchersAlone + 1) * routePrices.check,
    (voucher) => vouchers.push(voucher),
  );
  const exact = await payerClient(world, "exact", 0n);
  const address = checkedAddress;
  // The deposit opens the channel; every timed payment after it is a voucher.
  if (!(await payOnce(stack, channel, address)).ok) throw new Error("the deposit was refused");
  const rows = { channel: [] as number[], exact: [] as number[], engine: [] as number[] };
  const cpu = { channel: [] as number[], engine: [] as number[] };
  const ratios = { channel: [] as number[], exact: [] as number[] };
  for (let index = 0; index < rounds; index++) {
    const overChannel = await payOnce(stack, channel, address);
    const withExact = await payOnce(stack, exact, address);
    if (!overChannel.ok || !withExact.ok) throw new Error("a paid /check was refused");
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    await stack.engine.check({ address, chain: "base" });
    const engineMs = performance.now() - start;
    const engineCpuMs = cpuMsSince(cpuStart);
    if (index < 3) continue; // warm-up
    rows.channel.push(overChannel.ms);
    rows.exact.push(withExact.ms);
    rows.engine.push(engineMs);
    cpu.channel.push(overChannel.cpuMs);
    cpu.engine.push(engineCpuMs);
    ratios.channel.push(overChannel.ms / engineMs);
    ratios.exact.push(withExact.ms / engineMs);
  }
  let paymentRequests = 0;
  if (options.paymentRequests) {
    // Counted apart from `exact`, whose settlement's nonce watcher reads the chain a moment after
    // its request: once the payments' RPC has gone quiet, vouchers alone, one after another.
    await quiet(options.paymentRequests);
    for (let index = 0; index < vouchersAlone; index++) {
      const voucher = await payOnce(stack, channel, address, options.paymentRequests);
      if (!voucher.ok) throw new Error("a paid /check was refused");
      paymentRequests += voucher.requests;
    }
  }
  const channelMs = quantiles(rows.channel);
  const engineAloneMs = quantiles(rows.engine);
  const voucherSignatureMs = quantiles(await timeSignatureChecks(vouchers));
  return {
    samples: options.samples,
    channelMs,
    exactMs: quantiles(rows.exact),
    engineAloneMs,
    channelCpuMs: quantiles(cpu.channel),
    engineAloneCpuMs: quantiles(cpu.engine),
    channelVsEngine: quantiles(ratios.channel),
    exactVsEngine: quantiles(ratios.exact),
    channelAddedMs: channelMs.p50 - engineAloneMs.p50,
    voucherSignatureMs,
    signatureFloorVsEngine: (engineAloneMs.p50 + voucherSignatureMs.p50) / engineAloneMs.p50,
    paymentRpcRequestsPerVoucher: vouchersAlone > 0 ? paymentRequests / vouchersAlone : 0,
  };
}

/**
 * Each voucher's signature checked again, one after another, as the server scheme checks it:
 * the milliseconds of each check (a check that fails would time the wrong thing, so it throws).
 */
async function timeSignatureChecks(vouchers: SignedVoucher[]): Promise<number[]> {
  const times: number[] = [];
  for (const voucher of vouchers) {
    const start = performance.now();
    const valid = await verifyTypedData(voucher);
    times.push(performance.now() - start);
    if (!valid) throw new Error("a voucher's signature did not check");
  }
  return times;
}

/** Resolves once `requests` has not moved for a second (at most ten seconds). */
async function quiet(requests: () => number) {
  const deadline = performance.now() + 10_000;
  let seen = requests();
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    if (requests() === seen) return;
    seen = requests();
  }
}

/**
 * `payers` concurrent payers, each paying `perPayer` checks one after another, over channels
 * (each opened by an untimed deposit first) and then with `exact`, on one stack: paid checks per
 * second of wall time, the share refused, latency.
 * @example const figures = await benchChannelLoad(world, { payers: 50, perPayer: 4 });
 */
export async function benchChannelLoad(
  world: World,
  options: { payers: number; perPayer: number },
): Promise<ChannelLoadBench> {
  const deposit = BigInt(options.perPayer + 1) * routePrices.check;
  const channelClients: x402HTTPClient[] = [];
  const exactClients: x402HTTPClient[] = [];
  for (let index = 0; index < options.payers; index++) {
    channelClients.push(await payerClient(world, "channel", deposit));
    exactClients.push(await payerClient(world, "exact", 0n));
  }
  const stack = await channelStack(world);
  const address = checkedAddress;
  const run = async (clients: x402HTTPClient[]) => {
    const latencies: number[] = [];
    let refused = 0;
    const started = performance.now();
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < options.perPayer; i++) {
          const result = await payOnce(stack, client, address);
          latencies.push(result.ms);
          if (!result.ok) refused++;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const requests = clients.length * options.perPayer;
    return {
      paidPerSecond: (requests - refused) / seconds,
      refusedShare: refused / requests,
      latencyMs: quantiles(latencies),
    };
  };
  try {
    // Every channel opened first (one deposit each), so the timed run pays vouchers only.
    await Promise.all(
      channelClients.map(async (client) => {
        if (!(await payOnce(stack, client, address)).ok) throw new Error("a deposit was refused");
      }),
    );
    const channel = await run(channelClients);
    const exact = await run(exactClients);
    return {
      payers: options.payers,
      requests: options.payers * options.perPayer,
      channel,
      exact,
    };
  } finally {
    await stack.stop();
  }
}
