import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { startNginx } from "./startNginx";
import { startPostgres } from "./startPostgres";
import { startRedis } from "./startRedis";

const nginxTemplate = readFileSync(new URL("../../../deploy/nginx.conf", import.meta.url), "utf8");

describe("local services from Debian's packages", () => {
  it("starts PostgreSQL on a free port, answers queries, and removes it on stop", async () => {
    const db = await startPostgres();
    const client = new pg.Client({ connectionString: db.url });
    try {
      await client.connect();
      const result = await client.query<{ answer: number }>("SELECT 41 + 1 AS answer");
      expect(result.rows[0]?.answer).toBe(42);
    } finally {
      await client.end();
      await db.stop();
    }
    const after = new pg.Client({ connectionString: db.url, connectionTimeoutMillis: 2_000 });
    after.on("error", () => {});
    await expect(after.connect()).rejects.toThrow();
  });

  it("starts redis-server and stops it", async () => {
    const redis = await startRedis();
    const client = new Redis(redis.url);
    try {
      await client.set("k", "v");
      expect(await client.get("k")).toBe("v");
    } finally {
      client.disconnect();
      await redis.stop();
    }
  });

  it("starts nginx with the deploy config and spreads requests over the upstreams", async () => {
    const backends = await Promise.all(["a", "b"].map((name) => backend(name)));
    const proxy = await startNginx({
      template: nginxTemplate,
      upstreams: backends.map((server) => `127.0.0.1:${server.port}`),
    });
    try {
      const seen = new Set<string>();
      const forwarded = new Set<string>();
      for (let i = 0; i < 6; i++) {
        const response = await fetch(`${proxy.url}/who`, {
          // A paid request's PAYMENT-SIGNATURE is as large as a 402's PAYMENT-REQUIRED.
          headers: { "x-forwarded-for": "6.6.6.6", "payment-signature": "y".repeat(12_000) },
        });
        expect(response.headers.get("payment-required")).toHaveLength(12_000);
        const body = (await response.json()) as { name: string; xff: string; signature: number };
        expect(body.signature).toBe(12_000);
        seen.add(body.name);
        forwarded.add(body.xff);
      }
      expect([...seen].sort()).toEqual(["a", "b"]);
      // The forged entry stays first; the address nginx saw is appended last.
      expect([...forwarded]).toEqual(["6.6.6.6, 127.0.0.1"]);
    } finally {
      await proxy.stop();
      for (const server of backends) server.close();
    }
  });
});

async function backend(name: string) {
  const server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    // The size of a 402's PAYMENT-REQUIRED header with its signed attestation, and then some.
    response.setHeader("payment-required", "x".repeat(12_000));
    response.end(
      JSON.stringify({
        name,
        xff: request.headers["x-forwarded-for"],
        signature: request.headers["payment-signature"]?.length,
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => server.close() };
}
