import { Redis } from "ioredis";
import { freePort } from "../http/freePort";
import { type SpawnedService, spawnService } from "./spawnService";

export type LocalRedis = {
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** SIGKILLs the server (a fault test): every key is lost, connections drop. */
  kill: () => Promise<void>;
  /** Starts the server again on the same port after a kill or stop (empty unless append-only). */
  restart: () => Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open and nothing answers. */
  freeze: () => void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw: () => void;
};

/**
 * Starts Debian's redis-server on a free loopback port, in memory only (no RDB, no AOF), or
 * with `appendOnlyDir` writing every change to an append-only file there.
 * @example const redis = await startRedis(); process.env.REDIS_URL = redis.url;
 */
export async function startRedis(options: { appendOnlyDir?: string } = {}): Promise<LocalRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const start = () =>
    spawnService({
      name: "redis-server",
      command: "redis-server",
      args: [
        ...["--port", String(port), "--bind", "127.0.0.1", "--save", ""],
        ...(options.appendOnlyDir === undefined
          ? ["--appendonly", "no"]
          : // `always`: a write is on disk before Redis answers it, so a kill loses nothing it
            // acknowledged (`everysec` may hold writes back while a slow fsync runs).
            ["--appendonly", "yes", "--appendfsync", "always", "--dir", options.appendOnlyDir]),
      ],
      ready: async () => {
        const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
        client.on("error", () => {});
        try {
          await client.connect();
          return (await client.ping()) === "PONG";
        } finally {
          client.disconnect();
        }
      },
    });
  let service: SpawnedService = await start();
  return {
    url,
    port,
    stop: () => {
      // A frozen server would not hear the SIGTERM.
      service.kill("SIGCONT");
      return service.stop();
    },
    freeze: () => service.kill("SIGSTOP"),
    thaw: () => service.kill("SIGCONT"),
    async kill() {
      service.kill("SIGKILL");
      await service.exited;
    },
    async restart() {
      await service.stop();
      service = await start();
    },
  };
}
