import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import pg from "pg";
import { freePort } from "../http/freePort";
import { type SpawnedService, spawnService } from "./spawnService";

const execFileAsync = promisify(execFile);

export type LocalPostgres = {
  /** postgres://presend@127.0.0.1:PORT/postgres (trust auth on loopback). */
  url: string;
  port: number;
  /**
   * Freezes every process of the cluster (SIGSTOP): connections stay open and nothing answers,
   * as a database behind a network partition or a stalled disk does.
   */
  freeze: () => void;
  /** Lets a frozen cluster run again (SIGCONT). */
  thaw: () => void;
  stop: () => Promise<void>;
};

/** The bin directory of Debian's newest installed PostgreSQL (/usr/lib/postgresql/N/bin). */
export function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const dir = versions.map((version) => join(root, version, "bin")).find((bin) => existsSync(bin));
  if (!dir)
    throw new ConfigurationError("PostgreSQL is not installed (apt-get install postgresql)");
  return dir;
}

// PostgreSQL refuses to run as root; as root the cluster belongs to Debian's postgres user
// (or nobody when the package did not create one). os.userInfo only knows the current user.
function serviceUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const entries = readFileSync("/etc/passwd", "utf8").split("\n");
  for (const name of ["postgres", "nobody"]) {
    const fields = entries.find((entry) => entry.startsWith(`${name}:`))?.split(":");
    if (fields) return { uid: Number(fields[2]), gid: Number(fields[3]) };
  }
  throw new ConfigurationError(
    "running as root and neither the postgres nor the nobody user exists",
  );
}

/**
 * Starts a throw-away PostgreSQL cluster from Debian's packages on a free loopback port: initdb
 * into a temp dir, postgres in the foreground, trust auth for the `presend` role. stop() removes
 * the cluster.
 * @example const db = await startPostgres(); process.env.DATABASE_URL = db.url;
 */
export async function startPostgres(): Promise<LocalPostgres> {
  const bin = postgresBinDir();
  const user = serviceUser();
  const dir = mkdtempSync(join(tmpdir(), "presend-pg-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  await execFileAsync(
    join(bin, "initdb"),
    ["-D", data, "-U", "presend", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
    { ...asUser, cwd: dir, env: { ...process.env, LC_ALL: "C" } },
  );
  const port = await freePort();
  const url = `postgres://presend@127.0.0.1:${port}/postgres`;
  const service = await spawnService({
    name: "postgres",
    command: join(bin, "postgres"),
    args: [
      "-D",
      data,
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "listen_addresses=127.0.0.1",
      // A throw-away test cluster: durability against a host crash is not what is tested.
      "-c",
      "fsync=off",
      "-c",
      "max_connections=200",
    ],
    ...asUser,
    cwd: dir,
    env: { ...process.env, LC_ALL: "C" },
    ready: async () => {
      const client = new pg.Client({ connectionString: url });
      client.on("error", () => {});
      try {
        await client.connect();
        await client.query("SELECT 1");
        return true;
      } finally {
        await client.end().catch(() => {});
      }
    },
  });
  return {
    url,
    port,
    freeze: () => signalCluster(service, "SIGSTOP"),
    thaw: () => signalCluster(service, "SIGCONT"),
    stop: async () => {
      // A frozen cluster would not hear the SIGTERM.
      signalCluster(service, "SIGCONT");
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Signals the postmaster and every process it started: each backend runs in a session of its
 * own (PostgreSQL calls setsid), so the postmaster's process group does not reach them.
 */
function signalCluster(service: SpawnedService, signal: NodeJS.Signals): void {
  const postmaster = service.process.pid;
  if (postmaster === undefined) return;
  service.kill(signal);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // The parent's pid is the second field after the command, which is in parentheses.
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (parent !== postmaster) continue;
    try {
      process.kill(Number(entry), signal);
    } catch {
      // gone meanwhile
    }
  }
}
