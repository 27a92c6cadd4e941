import { encodePaymentSignatureHeader } from "@x402/core/http";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { privateKeyToAccount } from "viem/accounts";
import type { World } from "../src/devnet/startWorld";
import type { Engine } from "../src/engine/createEngine";
import { startPaidStack } from "../src/payments/startPaidStack";
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
      const start = performance.now();
      const response = await post({ "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) });
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
