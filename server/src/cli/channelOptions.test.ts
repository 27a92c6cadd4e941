import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { afterAll, describe, expect, it } from "vitest";
import { channelOptions } from "./channelOptions";

describe("channelOptions", () => {
  const root = mkdtempSync(join(tmpdir(), "presend-session-keys-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("runs started at once in a new config directory all sign with one session key: none fails, none reads half a key", async () => {
    const processes = 4;
    const directories = 600;
    // Each process takes the durable channel options of the same new config directories in the
    // same order, all let go at once: the first use of each directory is a race between them.
    const taking = () => {
      const child = spawn(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `import { tsImport } from "tsx/esm/api";
const { channelOptions } = await tsImport(${JSON.stringify(join(import.meta.dirname, "channelOptions.ts"))}, import.meta.url);
console.log("ready");
process.stdin.once("data", () => {
  const signers = [];
  const failures = [];
  for (let index = 0; index < ${directories}; index++) {
    try {
      const options = channelOptions({}, { configDir: ${JSON.stringify(root)} + "/" + index, durable: true, maxDeposit: 100000n });
      signers.push(options.voucherSigner.address);
    } catch (error) {
      signers.push(null);
      failures.push(error.message);
    }
  }
  console.log(JSON.stringify({ signers, failures: failures.slice(0, 3) }));
  process.exit(0);
});`,
        ],
        { cwd: join(import.meta.dirname, "..", ".."), stdio: ["pipe", "pipe", "inherit"] },
      );
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
      });
      const ready = new Promise<void>((resolve) => {
        child.stdout.on("data", () => {
          if (out.startsWith("ready\n")) resolve();
        });
      });
      const done = new Promise<{ signers: (string | null)[]; failures: string[] }>(
        (resolve, reject) => {
          child.once("error", reject);
          child.once("exit", () => resolve(JSON.parse(out.slice("ready\n".length))));
        },
      );
      return { child, ready, done };
    };
    const children = Array.from({ length: processes }, taking);
    await Promise.all(children.map(({ ready }) => ready));
    for (const { child } of children) child.stdin.write("go\n");
    const results = await Promise.all(children.map(({ done }) => done));
    for (const result of results) expect(result.failures).toEqual([]);
    const [first, ...others] = results;
    for (const other of others) expect(other.signers).toEqual(first?.signers);
  }, 120_000);

  const saltStoreIn = (configDir: string) => {
    const store = channelOptions({}, { configDir, durable: true, maxDeposit: 100_000n })?.saltStore;
    if (!store) throw new Error("no salt store");
    return store;
  };

  it("a damaged salt file is an error naming it and what to do, never a new salt on its own", async () => {
    const configDir = join(root, "damaged-salt");
    const file = join(configDir, "channels", "salt");
    mkdirSync(join(configDir, "channels"), { recursive: true });
    for (const damaged of ["", "0x12ab\n", `0x${"a".repeat(63)}`]) {
      writeFileSync(file, damaged);
      const reading = saltStoreIn(configDir).read();
      await expect(reading).rejects.toBeInstanceOf(ConfigurationError);
      await expect(reading).rejects.toThrow(
        `${file} is damaged: it does not hold a channel salt (0x and 64 hex digits)`,
      );
      await expect(reading).rejects.toThrow(/from a backup.*otherwise remove it/);
      // Left as it was: the operator decides.
      expect(readFileSync(file, "utf8")).toBe(damaged);
    }
  });

  it("a session key file that cannot be read (a directory in its place) is an error naming it and what to do", () => {
    const configDir = join(root, "unreadable-key");
    const file = join(configDir, "channel-session.key");
    mkdirSync(file, { recursive: true });
    const taking = () => channelOptions({}, { configDir, durable: true, maxDeposit: 100_000n });
    expect(taking).toThrow(ConfigurationError);
    expect(taking).toThrow(`The channel session key ${file} cannot be read`);
    expect(taking).toThrow(/a file you can read.*move it away: the next check makes a new key/);
    // Left as it was: the operator decides.
    expect(statSync(file).isDirectory()).toBe(true);
  });

  it("a damaged session key file is an error naming it and what to do, never a new key on its own", () => {
    const configDir = join(root, "damaged-key");
    const file = join(configDir, "channel-session.key");
    mkdirSync(configDir, { recursive: true });
    writeFileSync(file, "0x12ab\n");
    const taking = () => channelOptions({}, { configDir, durable: true, maxDeposit: 100_000n });
    expect(taking).toThrow(`The channel session key ${file} is damaged`);
    expect(taking).toThrow(/from a backup.*otherwise move it away/);
    expect(readFileSync(file, "utf8")).toBe("0x12ab\n");
  });

  it("a salt being replaced is never read half-written by another run", async () => {
    const configDir = join(root, "replaced-salt");
    const store = saltStoreIn(configDir);
    await store.write(`0x${"0".repeat(64)}`);
    // Another process replaces the salt over and over while this one reads it: a salt written
    // in place is, for a moment, an empty or partial file.
    const writer = spawn(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { tsImport } from "tsx/esm/api";
const { channelOptions } = await tsImport(${JSON.stringify(join(import.meta.dirname, "channelOptions.ts"))}, import.meta.url);
const store = channelOptions({}, { configDir: ${JSON.stringify(configDir)}, durable: true, maxDeposit: 100000n }).saltStore;
console.log("ready");
for (let index = 0; index < 3000; index++) await store.write("0x" + index.toString(16).padStart(64, "0"));
process.exit(0);`,
      ],
      { cwd: join(import.meta.dirname, "..", ".."), stdio: ["ignore", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => writer.stdout.once("data", () => resolve()));
    let exited = false;
    writer.once("exit", () => {
      exited = true;
    });
    const failures: string[] = [];
    let reads = 0;
    while (!exited) {
      reads++;
      await store.read().catch((error: Error) => failures.push(error.message));
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(reads).toBeGreaterThan(100);
    expect(failures).toEqual([]);
    expect(await store.read()).toBe(`0x${(2999).toString(16).padStart(64, "0")}`);
  }, 60_000);
});
