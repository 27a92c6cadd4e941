import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { loadConfig } from "../config/loadConfig";

// Docker cannot run on the machines this is tested on: these tests check what can be checked
// without it. The nginx config itself is the one the scale test runs.
const repoRoot = resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

const ServiceSchema = z.object({
  build: z.string().optional(),
  image: z.string().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })).optional(),
  volumes: z.array(z.string()).optional(),
});
const ComposeSchema = z.object({ services: z.record(z.string(), ServiceSchema) });

/** What `docker compose` would pass: ${NAME:?...} and ${NAME:-default} filled from `env`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_, name: string, fallback?: string) => {
    return env[name] ?? fallback ?? "";
  });
}

describe("compose.yaml", () => {
  const compose = ComposeSchema.parse(parse(read("compose.yaml"), { merge: true }));

  it("runs two API replicas, the facilitator service, PostgreSQL, Redis and nginx in front", () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ["api-a", "api-b", "facilitator", "nginx", "postgres", "redis"].sort(),
    );
    expect(compose.services.nginx?.volumes).toContain(
      "./deploy/nginx.conf:/etc/presend/nginx.conf:ro",
    );
    expect(String(compose.services.nginx?.command)).toContain(
      "server api-a:8402; server api-b:8402;",
    );
    expect(compose.services.facilitator?.command).toEqual([
      "node",
      "server/bin/presend.js",
      "facilitator",
    ]);
  });

  it("gives each replica settings the server accepts, pointing at the shared services", () => {
    const env = {
      PUBLIC_URL: "https://presend.example",
      PAY_TO: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
      POSTGRES_PASSWORD: "secret",
      FACILITATOR_AUTH_TOKEN: "f".repeat(64),
      RECEIVER_AUTHORIZER_KEY: `0x${"1".repeat(64)}`,
      RPC_URLS_BASE: "https://base.example/rpc",
      RPC_URLS_ETHEREUM: "https://ethereum.example/rpc",
      RPC_URLS_ARBITRUM: "https://arbitrum.example/rpc",
      RPC_URLS_OPTIMISM: "https://optimism.example/rpc",
      RPC_URLS_POLYGON: "https://polygon.example/rpc",
    };
    for (const name of ["api-a", "api-b"]) {
      const raw = compose.services[name]?.environment ?? {};
      const filled = Object.fromEntries(
        Object.entries(raw).map(([key, value]) => [key, interpolate(value, env)]),
      );
      const config = loadConfig(filled);
      expect(config).toMatchObject({
        network: "mainnet",
        facilitatorUrl: "http://facilitator:8403",
        facilitatorAuthToken: "f".repeat(64),
        databaseUrl: "postgres://presend:secret@postgres:5432/presend",
        redisUrl: "redis://redis:6379",
        trustProxy: true,
      });
      expect(config.rateLimit).not.toBeNull();
      // The facilitator service requires the same secret the replicas send.
      expect(
        interpolate(compose.services.facilitator?.environment?.FACILITATOR_AUTH_TOKEN ?? "", env),
      ).toBe(config.facilitatorAuthToken);
      expect(compose.services[name]?.depends_on).toMatchObject({
        postgres: { condition: "service_healthy" },
        redis: { condition: "service_healthy" },
        facilitator: { condition: "service_healthy" },
      });
    }
  });
});

describe("Dockerfile", () => {
  const dockerfile = read("Dockerfile");

  it("is multi-stage and runs the server as the unprivileged node user", () => {
    expect(dockerfile.match(/^FROM /gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/npm ci --omit=dev/);
    expect(dockerfile).toMatch(/^CMD \["node", "--import", "tsx", "server\/src\/main.ts"\]$/m);
  });
});
