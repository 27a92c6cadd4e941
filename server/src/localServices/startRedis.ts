import { Redis } from "ioredis";
import { freePort } from "../http/freePort";
import { spawnService } from "./spawnService";

export type LocalRedis = { url: string; port: number; stop: () => Promise<void> };

/**
 * Starts Debian's redis-server on a free loopback port, in memory only (no RDB, no AOF).
 * @example const redis = await startRedis(); process.env.REDIS_URL = redis.url;
 */
export async function startRedis(): Promise<LocalRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  const service = await spawnService({
    name: "redis-server",
    command: "redis-server",
    args: ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
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
  return { url, port, stop: () => service.stop() };
}
