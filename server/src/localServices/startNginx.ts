import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../http/freePort";
import { spawnService } from "./spawnService";

export type LocalNginx = { url: string; port: number; stop: () => Promise<void> };

export type StartNginxOptions = {
  /** The config file; `{{PORT}}`, `{{UPSTREAMS}}` and `{{TMP}}` are filled in. */
  template: string;
  /** host:port of each API replica. */
  upstreams: string[];
  /** Listen port (default: a free one); pick it first when the replicas must know the public URL. */
  port?: number;
};

/**
 * Starts Debian's nginx in the foreground on a free loopback port with the given config template
 * (the one deploy/ ships), proxying to the given replicas. Everything it writes stays in a temp dir.
 * @example const proxy = await startNginx({ template, upstreams: ["127.0.0.1:8402"] });
 */
export async function startNginx(options: StartNginxOptions): Promise<LocalNginx> {
  const dir = mkdtempSync(join(tmpdir(), "presend-nginx-"));
  // As root, nginx workers run as nobody and must reach the buffer directories.
  chmodSync(dir, 0o755);
  const port = options.port ?? (await freePort());
  const config = options.template
    .replaceAll("{{PORT}}", String(port))
    .replaceAll("{{TMP}}", dir)
    .replaceAll(
      "{{UPSTREAMS}}",
      options.upstreams.map((upstream) => `server ${upstream};`).join(" "),
    );
  const file = join(dir, "nginx.conf");
  writeFileSync(file, config);
  const url = `http://127.0.0.1:${port}`;
  const service = await spawnService({
    name: "nginx",
    command: existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx",
    args: ["-c", file, "-p", dir, "-e", join(dir, "error.log"), "-g", "daemon off;"],
    ready: async () => {
      const response = await fetch(`${url}/nginx-ready`);
      await response.body?.cancel();
      return response.status === 204;
    },
  });
  return {
    url,
    port,
    stop: async () => {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
