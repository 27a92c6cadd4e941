import { createServer } from "node:net";

/** Whether something already listens on `port` of `host` (binding it fails with EADDRINUSE). */
export function portInUse(port: number, host = "127.0.0.1"): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") resolve(true);
      else reject(error);
    });
    probe.listen(port, host, () => probe.close(() => resolve(false)));
  });
}

/**
 * The ports among `wanted` that another process already holds (0 = any free port, never busy).
 * @example const busy = await portsInUse([{ port: 8402, what: "the API" }]);
 */
export async function portsInUse<T extends { port: number; host?: string }>(
  wanted: T[],
): Promise<T[]> {
  const busy: T[] = [];
  for (const entry of wanted) {
    if (entry.port !== 0 && (await portInUse(entry.port, entry.host))) busy.push(entry);
  }
  return busy;
}
