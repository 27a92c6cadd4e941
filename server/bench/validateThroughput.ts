import autocannon from "autocannon";
import { Hono } from "hono";
import { createApp } from "../src/app";
import { listen } from "../src/http/listen";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

async function requestsPerSecond(url: string, durationSeconds: number): Promise<number> {
  const result = await autocannon({ url, connections: 10, duration: durationSeconds });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  }
  return result.requests.average;
}

/**
 * `/validate` requests per second, as a ratio to a bare Hono route (same answer, from a constant)
 * served by the same node-server in the same process; rounds alternate so drift on a noisy
 * machine hits both sides alike.
 */
export async function benchValidateThroughput(options: { rounds: number; seconds: number }) {
  const app = createApp({ publicUrl: "http://127.0.0.1", probe: async () => [] });
  // The baseline answers the very same JSON bytes from a constant, so the ratio measures what the
  // app adds (routing, middleware, validation, the checksum) and not the size of the answer.
  const same = await (await app.request(`/validate?address=${address}`)).json();
  const bare = new Hono();
  bare.get("/bare", (c) => c.json(same));
  const [appServer, bareServer] = await Promise.all([
    listen(app, { port: 0 }),
    listen(bare, { port: 0 }),
  ]);
  try {
    const validateUrl = `${appServer.url}/validate?address=${address}`;
    const bareUrl = `${bareServer.url}/bare`;
    // Warm both up so JIT state does not favour the one measured second.
    await requestsPerSecond(validateUrl, 1);
    await requestsPerSecond(bareUrl, 1);
    const validate: number[] = [];
    const baseline: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      baseline.push(await requestsPerSecond(bareUrl, options.seconds));
      validate.push(await requestsPerSecond(validateUrl, options.seconds));
    }
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    return {
      validateRps: mean(validate),
      bareRps: mean(baseline),
      ratio: mean(validate) / mean(baseline),
    };
  } finally {
    await Promise.all([appServer.close(), bareServer.close()]);
  }
}
