import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

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
});
