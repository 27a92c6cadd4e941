import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chainNames } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { z } from "zod";
import { configVariables, loadConfig } from "../config/loadConfig";
import { facilitatorServiceVariables } from "../facilitatorService/startFacilitatorService";
import {
  loadAttestationKey,
  publicAttestationKey,
} from "../payments/attestation/loadAttestationKey";
import { loadPreviousAttestationKeys } from "../payments/attestation/loadPreviousAttestationKeys";

// Docker cannot run on the machines this is tested on: these tests check what can be checked
// without it. The nginx config itself is the one the scale test runs.
const repoRoot = resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

const ServiceSchema = z.object({
  build: z.string().optional(),
  image: z.string().optional(),
  command: z.union([z.string(), z.array(z.string())]).optional(),
  environment: z.record(z.string(), z.string()).optional(),
  profiles: z.array(z.string()).optional(),
  depends_on: z
    .record(z.string(), z.object({ condition: z.string(), required: z.boolean().optional() }))
    .optional(),
  volumes: z.array(z.string()).optional(),
  secrets: z.array(z.string()).optional(),
});
const ComposeSchema = z.object({
  services: z.record(z.string(), ServiceSchema),
  secrets: z.record(z.string(), z.object({ file: z.string() })).optional(),
});

/** What `docker compose` would pass: ${NAME:?...} and ${NAME:-default} filled from `env`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::[?-]([^}]*))?\}/g, (_, name: string, fallback?: string) => {
    return env[name] ?? fallback ?? "";
  });
}

/** The KEY=value lines of an env file (compose's .env), comments left out. */
function envFile(text: string): Record<string, string> {
  return Object.fromEntries(
    [...text.matchAll(/^([A-Z][A-Z0-9_]*)=(.*)$/gm)].map((match) => [match[1], match[2]]),
  ) as Record<string, string>;
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

  // .env.example with its blanks filled in, as an operator would.
  const filled: Record<string, string> = {
    ...envFile(read(".env.example")),
    PAY_TO: "0x0B62738DA3553dae5D0C6420bfc6a3EE6c951350",
    ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    POSTGRES_PASSWORD: "secret",
    FACILITATOR_PRIVATE_KEY: `0x${"2".repeat(64)}`,
    FACILITATOR_AUTH_TOKEN: "f".repeat(64),
    RECEIVER_AUTHORIZER_KEY: `0x${"1".repeat(64)}`,
    RPC_URLS_BASE: "https://base.example/rpc",
    RPC_URLS_ETHEREUM: "https://ethereum.example/rpc",
    RPC_URLS_ARBITRUM: "https://arbitrum.example/rpc",
    RPC_URLS_OPTIMISM: "https://optimism.example/rpc",
    RPC_URLS_POLYGON: "https://polygon.example/rpc",
    OWNERSHIP_PROOFS: "0xproof",
  };
  const replicaConfig = (name: string, env: Record<string, string>) =>
    loadConfig(
      Object.fromEntries(
        Object.entries(compose.services[name]?.environment ?? {}).map(([key, value]) => [
          key,
          interpolate(value, env),
        ]),
      ),
    );

  it("gives each replica settings the server accepts, pointing at the shared services", () => {
    expect(filled.COMPOSE_PROFILES).toBe("facilitator");
    for (const name of ["api-a", "api-b"]) {
      const config = replicaConfig(name, filled);
      expect(config).toMatchObject({
        network: "mainnet",
        facilitatorUrl: "http://facilitator:8403",
        facilitatorAuth: { type: "bearer", token: "f".repeat(64) },
        databaseUrl: "postgres://presend:secret@postgres:5432/presend",
        redisUrl: "redis://redis:6379",
        trustProxy: true,
        ownershipProofs: ["0xproof"],
      });
      expect(config.rateLimit).not.toBeNull();
      // The facilitator service requires the same secret the replicas send.
      expect(
        interpolate(
          compose.services.facilitator?.environment?.FACILITATOR_AUTH_TOKEN ?? "",
          filled,
        ),
      ).toBe(config.facilitatorAuthToken);
      expect(compose.services[name]?.depends_on).toMatchObject({
        postgres: { condition: "service_healthy" },
        redis: { condition: "service_healthy" },
        facilitator: { condition: "service_healthy" },
      });
    }
    expect(compose.services.facilitator?.profiles).toEqual([filled.COMPOSE_PROFILES]);
  });

  it("runs on a hosted facilitator without the facilitator service, sending it no fleet token", () => {
    const {
      COMPOSE_PROFILES,
      FACILITATOR_URL,
      FACILITATOR_PRIVATE_KEY,
      FACILITATOR_AUTH_TOKEN,
      ...hosted
    } = filled;
    const cdp = {
      ...hosted,
      FACILITATOR_PROVIDER: "cdp",
      CDP_API_KEY_ID: "id",
      CDP_API_KEY_SECRET: "secret",
    };
    const payai = {
      ...hosted,
      FACILITATOR_PROVIDER: "payai",
      PAYAI_API_KEY_ID: "id",
      PAYAI_API_KEY_SECRET: "secret",
    };
    const byUrl = { ...hosted, FACILITATOR_URL: "https://facilitator.example.com" };
    for (const name of ["api-a", "api-b"]) {
      expect(replicaConfig(name, cdp)).toMatchObject({
        facilitatorUrl: undefined,
        facilitatorAuth: { type: "cdp", apiKeyId: "id", apiKeySecret: "secret" },
      });
      expect(replicaConfig(name, payai).facilitatorAuth).toMatchObject({ type: "payai" });
      expect(replicaConfig(name, byUrl)).toMatchObject({
        facilitatorUrl: "https://facilitator.example.com",
        facilitatorAuth: { type: "none" },
      });
      // With the profile off the service is left out, and the replicas start without it.
      expect(compose.services[name]?.depends_on?.facilitator?.required).toBe(false);
    }
    // Compose interpolates every service, the ones a profile leaves out too: nothing the service
    // alone needs may be demanded with ${…:?}.
    for (const value of Object.values(compose.services.facilitator?.environment ?? {})) {
      const required = [...value.matchAll(/\$\{(\w+):\?/g)].map((match) => match[1]);
      expect(required.filter((name) => !(name && name in hosted))).toEqual([]);
    }
  });

  it("names in .env.example every variable it reads, and .env.example sets only those", () => {
    const example = read(".env.example");
    const named = new Set([...example.matchAll(/^#? ?([A-Z][A-Z0-9_]+)=/gm)].map((m) => m[1]));
    const used = new Set([...read("compose.yaml").matchAll(/\$\{(\w+)/g)].map((m) => m[1]));
    // COMPOSE_PROFILES is compose's own.
    used.add("COMPOSE_PROFILES");
    expect([...used].filter((name) => !named.has(name))).toEqual([]);
    expect([...named].filter((name) => !used.has(name))).toEqual([]);
  });
});

describe("compose.yaml and a rotated attestation key", () => {
  const compose = ComposeSchema.parse(parse(read("compose.yaml"), { merge: true }));
  const secretPath = (name: string) => `/run/secrets/${name}`;

  it("gives every replica the previous keys file the rotation wrote, mounted like the key", () => {
    const rotated = { ATTESTATION_PREVIOUS_KEYS_FILE: "/etc/presend/previous-keys.json" };
    for (const name of ["api-a", "api-b"]) {
      const service = compose.services[name];
      const inContainer = service?.environment?.ATTESTATION_PREVIOUS_KEYS_FILE ?? "";
      const secret = (service?.secrets ?? []).find(
        (mounted) => secretPath(mounted) === inContainer,
      );
      expect(secret, `${name} mounts ${inContainer}`).toBeDefined();
      const hostFile = compose.secrets?.[secret as string]?.file ?? "";
      expect(interpolate(hostFile, rotated)).toBe(rotated.ATTESTATION_PREVIOUS_KEYS_FILE);
    }
  });

  it("mounts an empty list before any rotation, which a replica accepts", async () => {
    const service = compose.services["api-a"];
    const inContainer = service?.environment?.ATTESTATION_PREVIOUS_KEYS_FILE ?? "";
    const secret = (service?.secrets ?? []).find((mounted) => secretPath(mounted) === inContainer);
    const hostFile = interpolate(compose.secrets?.[secret as string]?.file ?? "", {});
    const dir = mkdtempSync(join(tmpdir(), "presend-compose-"));
    try {
      const current = publicAttestationKey(await loadAttestationKey({ dataDir: dir }));
      expect(await loadPreviousAttestationKeys(join(repoRoot, hostFile), current)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
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

/**
 * The environment variable names a README passage names in backticks; "`X_BASE` … `X_POLYGON`"
 * stands for the five chains' names.
 */
function namedVariables(passage: string): Set<string> {
  const names = new Set<string>();
  for (const [, first, last] of passage.matchAll(/`([A-Z0-9_]+)_BASE` … `\1_POLYGON`/g)) {
    void last;
    for (const chain of chainNames) names.add(`${first}_${chain.toUpperCase()}`);
  }
  for (const [, name] of passage.matchAll(/`([A-Z][A-Z0-9_]{2,})`/g)) names.add(name as string);
  return names;
}

/** The README's text from `start` up to the next line that starts with `end`. */
function readmePassage(start: string, end: RegExp): string {
  const readme = read("README.md");
  const from = readme.indexOf(start);
  expect(from, `README has "${start}"`).toBeGreaterThanOrEqual(0);
  const rest = readme.slice(from + start.length);
  const to = rest.search(end);
  return to === -1 ? rest : rest.slice(0, to);
}

describe("README and the settings read", () => {
  it("names every setting the server reads in Configuration, and only those", () => {
    const documented = namedVariables(readmePassage("\n## Configuration\n", /^## /m));
    expect([...configVariables].filter((name) => !documented.has(name))).toEqual([]);
    expect([...documented].filter((name) => !configVariables.includes(name))).toEqual([]);
  });

  it("names every setting presend facilitator reads where it describes the service", () => {
    const documented = namedVariables(readmePassage("- **`presend facilitator`**", /^- \*\*/m));
    expect(facilitatorServiceVariables.filter((name) => !documented.has(name))).toEqual([]);
  });
});

describe("compose.yaml and the settings read", () => {
  const compose = ComposeSchema.parse(parse(read("compose.yaml"), { merge: true }));

  it("sets on each service only variables that service reads", () => {
    const reads: Record<string, readonly string[]> = {
      "api-a": configVariables,
      "api-b": configVariables,
      facilitator: facilitatorServiceVariables,
    };
    for (const [name, variables] of Object.entries(reads)) {
      const set = Object.keys(compose.services[name]?.environment ?? {});
      expect(
        set.filter((key) => !variables.includes(key)),
        name,
      ).toEqual([]);
    }
  });
});
