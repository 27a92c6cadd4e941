import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import {
  devnetClient,
  devnetPrivateKey,
  mintStablecoin,
  startWorld,
  type World,
} from "@presend/devnet";
import { chainNames, chains } from "@presend/shared/chains/chains";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { freePort } from "../src/http/freePort";
import { type SpawnedService, spawnService } from "../src/localServices/spawnService";
import { type LocalNginx, startNginx } from "../src/localServices/startNginx";
import { type LocalPostgres, startPostgres } from "../src/localServices/startPostgres";
import { type LocalRedis, startRedis } from "../src/localServices/startRedis";
import {
  devAttestationKeyFile,
  loadAttestationKey,
} from "../src/payments/attestation/loadAttestationKey";

const repoRoot = resolve(import.meta.dirname, "../..");
export const nginxTemplate = readFileSync(join(repoRoot, "deploy/nginx.conf"), "utf8");

export type Replica = { name: string; url: string; port: number; service: SpawnedService };

export type Fleet = {
  world: World;
  postgres: LocalPostgres;
  redis: LocalRedis;
  facilitator: SpawnedService & { url: string };
  replicas: Replica[];
  nginx: LocalNginx;
  /** Payer keys with USDC on the local Base, one per simulated client. */
  payers: Hex[];
  /**
   * Starts the facilitator service again on its port and journal (after a kill): it adopts what
   * its predecessor left unmined.
   */
  restartFacilitator: () => Promise<void>;
  /** Starts `replica` again on its port (after a kill), with the same settings. */
  restart: (replica: Replica) => Promise<void>;
  /** Starts one more replica with the fleet's settings and `env` over them (resolves once ready). */
  spawnReplica: (env: Record<string, string>) => Promise<Replica>;
  /** The directory the fleet keeps its files in (the attestation key among them). */
  dir: string;
  /** Starts another nginx in front of the given replicas (the one-replica speed run). */
  proxy: (replicas: Replica[]) => Promise<LocalNginx>;
  stop: () => Promise<void>;
};

export type FleetOptions = {
  payers: number;
  /** Settings every replica gets (rate limits, TTLs). */
  replicaEnv: Record<string, string>;
};

/**
 * The fleet of the scale test, every part a real process on a loopback port: the local five-chain
 * world, PostgreSQL, Redis, one `presend facilitator`, two API replicas (`npm start`'s main.ts in
 * mainnet mode against the local chains) and nginx in front with deploy/nginx.conf.
 * @example const fleet = await startFleet({ payers: 5, replicaEnv: {} }); ...; await fleet.stop();
 */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const started: Array<{ stop: () => Promise<void> }> = [];
  const dir = mkdtempSync(join(tmpdir(), "presend-fleet-"));
  const stopAll = async () => {
    for (const part of started.reverse()) await part.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [world, postgres, redis] = await Promise.all([
      startWorld(),
      startPostgres(),
      startRedis(),
    ]);
    started.push(world, postgres, redis);

    const base = devnetClient("base", world.chains.base.rpcUrl);
    const minter = privateKeyToAccount(world.accounts.faucet.privateKey);
    const payers = Array.from({ length: options.payers }, (_, i) =>
      devnetPrivateKey(`scale-payer-${i}`),
    );
    for (const key of payers) {
      await mintStablecoin(base, {
        token: chains.base.usdc.address,
        minter,
        to: privateKeyToAccount(key).address,
        amount: 1_000_000_000n,
      });
    }

    const presendBin = join(repoRoot, "server/bin/presend.js");
    // The secret the replicas share with the facilitator service, which refuses anyone else.
    const facilitatorAuthToken = randomBytes(32).toString("hex");
    const facilitatorPort = await freePort();
    const facilitatorUrl = `http://127.0.0.1:${facilitatorPort}`;
    const spawnFacilitator = () =>
      spawnService({
        name: "presend facilitator",
        command: process.execPath,
        args: [presendBin, "facilitator"],
        env: {
          ...process.env,
          PORT: String(facilitatorPort),
          FACILITATOR_PRIVATE_KEY: world.accounts.facilitator.privateKey,
          FACILITATOR_AUTH_TOKEN: facilitatorAuthToken,
          FACILITATOR_JOURNAL_FILE: join(dir, "facilitator-journal.json"),
          RPC_URLS_BASE: world.chains.base.rpcUrl,
          LOG_LEVEL: "warn",
        },
        ready: () => isReady(facilitatorUrl),
        timeoutMs: 60_000,
      });
    const facilitator: Fleet["facilitator"] = Object.assign(await spawnFacilitator(), {
      url: facilitatorUrl,
    });
    started.push(facilitator);

    // One attestation key for the fleet: every replica signs with it (clients pin it).
    await loadAttestationKey({ dataDir: dir });
    const nginxPort = await freePort();
    const publicUrl = `http://127.0.0.1:${nginxPort}`;
    const rpcEnv = Object.fromEntries(
      chainNames.map((name) => [`RPC_URLS_${name.toUpperCase()}`, world.chains[name].rpcUrl]),
    );
    const spawnReplica = async (
      name: string,
      port: number,
      env: Record<string, string> = {},
    ): Promise<SpawnedService> => {
      const url = `http://127.0.0.1:${port}`;
      const service = await spawnService({
        name: `api replica ${name}`,
        command: process.execPath,
        args: ["--import", "tsx", join(repoRoot, "server/src/main.ts")],
        cwd: join(repoRoot, "server"),
        env: {
          ...process.env,
          PRESEND_NETWORK: "mainnet",
          HOST: "127.0.0.1",
          PORT: String(port),
          PUBLIC_URL: publicUrl,
          // The fleet's nginx listens on loopback only: no payer or crawler elsewhere sees it.
          ALLOW_LOCAL_PUBLIC_URL: "1",
          DATA_DIR: join(dir, `replica-${name}`),
          ATTESTATION_KEY_FILE: join(dir, devAttestationKeyFile),
          FACILITATOR_URL: facilitatorUrl,
          FACILITATOR_AUTH_TOKEN: facilitatorAuthToken,
          PAY_TO: world.accounts.payTo.address,
          // The replicas share their channels in PostgreSQL, so they sign with one key (as in
          // compose.yaml).
          RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("fleet: receiver authorizer"),
          DATABASE_URL: postgres.url,
          REDIS_URL: redis.url,
          TRUST_PROXY: "1",
          LOG_LEVEL: "warn",
          ...rpcEnv,
          ...options.replicaEnv,
          ...env,
        },
        ready: () => isReady(url),
        timeoutMs: 90_000,
      });
      started.push(service);
      return service;
    };
    const replicas = await Promise.all(
      ["a", "b"].map(async (name): Promise<Replica> => {
        const port = await freePort();
        const service = await spawnReplica(name, port);
        return { name, url: `http://127.0.0.1:${port}`, port, service };
      }),
    );
    const upstreams = (list: Replica[]) => list.map((replica) => `127.0.0.1:${replica.port}`);
    const nginx = await startNginx({
      template: nginxTemplate,
      upstreams: upstreams(replicas),
      port: nginxPort,
    });
    started.push(nginx);
    const fleet: Fleet = {
      world,
      postgres,
      redis,
      facilitator,
      replicas,
      nginx,
      payers,
      restartFacilitator: async () => {
        await fleet.facilitator.stop();
        fleet.facilitator = Object.assign(await spawnFacilitator(), { url: facilitatorUrl });
        started.push(fleet.facilitator);
      },
      restart: async (replica) => {
        await replica.service.stop();
        replica.service = await spawnReplica(replica.name, replica.port);
      },
      spawnReplica: async (env) => {
        const port = await freePort();
        const service = await spawnReplica("extra", port, env);
        return { name: "extra", url: `http://127.0.0.1:${port}`, port, service };
      },
      dir,
      proxy: async (list) => {
        const extra = await startNginx({ template: nginxTemplate, upstreams: upstreams(list) });
        started.push(extra);
        return extra;
      },
      stop: stopAll,
    };
    return fleet;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

async function isReady(url: string): Promise<boolean> {
  const response = await fetch(`${url}/readyz`);
  await response.body?.cancel();
  return response.status === 200;
}
