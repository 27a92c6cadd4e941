import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadReceiverAuthorizerKey, receiverAuthorizerKeyFile } from "./loadReceiverAuthorizerKey";

describe("loadReceiverAuthorizerKey", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-authorizer-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("creates a key readable by its owner only, and keeps it across starts", async () => {
    const dir = dataDir();
    const first = await loadReceiverAuthorizerKey(dir);
    expect(first).toMatch(/^0x[0-9a-f]{64}$/);
    expect(statSync(join(dir, receiverAuthorizerKeyFile)).mode & 0o777).toBe(0o600);
    expect(await loadReceiverAuthorizerKey(dir)).toBe(first);
    expect(readFileSync(join(dir, receiverAuthorizerKeyFile), "utf8").trim()).toBe(first);
  });

  it("two starts at once agree on one key", async () => {
    const dir = dataDir();
    const [a, b] = await Promise.all([
      loadReceiverAuthorizerKey(dir),
      loadReceiverAuthorizerKey(dir),
    ]);
    expect(a).toBe(b);
  });

  it("refuses a file that holds no key, naming it", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, receiverAuthorizerKeyFile), "not a key\n");
    await expect(loadReceiverAuthorizerKey(dir)).rejects.toThrow(receiverAuthorizerKeyFile);
  });
});
