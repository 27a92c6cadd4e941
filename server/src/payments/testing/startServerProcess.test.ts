import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { afterAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServerProcess } from "./startServerProcess";

const { world, lane } = sharedPaymentWorld();

// A child process importing the whole server: seconds alone, far longer beside a full suite.
describe("startServerProcess", { timeout: 150_000 }, () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-server-process-"));
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the paid API with channels from a process of its own, and nothing after the kill", async () => {
    server = await startServerProcess({
      world,
      dataDir,
      receiverAuthorizerKey: devnetPrivateKey(`lane-${lane.index}-receiver-authorizer`),
    });
    const discovery = await fetch(`${server.url}/.well-known/x402`);
    expect(discovery.status).toBe(200);
    const document = (await discovery.json()) as { items: { accepts: { scheme: string }[] }[] };
    expect(document.items[0]?.accepts.map((accept) => accept.scheme)).toEqual([
      "exact",
      "batch-settlement",
    ]);
    await server.kill();
    await expect(fetch(`${server.url}/.well-known/x402`)).rejects.toThrow();
  });
});
