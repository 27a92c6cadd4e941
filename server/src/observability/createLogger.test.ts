import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, logDestination } from "./createLogger";

/** What logDestination makes (pino's SonicBoom): its ready and write events say when it writes. */
const fileDestination = (file: string) =>
  logDestination(file) as ReturnType<typeof pino.destination>;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("createLogger", () => {
  it("batches lines but shows a quiet server's line within the periodic flush, fields intact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-log-"));
    dirs.push(dir);
    const file = join(dir, "log.jsonl");
    const destination = fileDestination(file);
    await once(destination, "ready");
    const writes: number[] = [];
    const written = new Promise<void>((resolve) => {
      destination.on("write", (bytes: number) => {
        // The periodic flush also fires, and writes nothing, while the batch is empty.
        if (bytes === 0) return;
        writes.push(bytes);
        resolve();
      });
    });
    const logger = createLogger({ level: "info", name: "presend-api" }, destination);
    for (const reqId of ["abc", "def", "ghi"]) {
      logger.info({ reqId, route: "/validate", status: 200 }, "request");
    }
    // Three short lines are below the 4 kB batch: none is written as it is logged...
    expect(readFileSync(file, "utf8")).toBe("");
    // ...they wait for the periodic flush (250 ms), which writes them in one call.
    await written;
    const text = readFileSync(file, "utf8");
    expect(writes).toEqual([Buffer.byteLength(text)]);
    const lines = text.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 30,
      name: "presend-api",
      reqId: "abc",
      route: "/validate",
      status: 200,
      msg: "request",
    });
  });

  it("redacts a request's authorization and payment-signature headers, keeping the others", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-log-"));
    dirs.push(dir);
    const file = join(dir, "log.jsonl");
    const destination = fileDestination(file);
    await once(destination, "ready");
    const logger = createLogger({ level: "info", name: "presend-api" }, destination);
    const headers = { authorization: "Bearer secret", "payment-signature": "sig", accept: "*/*" };
    logger.info({ req: { headers } }, "request");
    await new Promise<void>((resolve, reject) =>
      destination.flush((error) => (error ? reject(error) : resolve())),
    );
    const line = JSON.parse(readFileSync(file, "utf8").trim());
    expect(line.req.headers).toEqual({
      authorization: "[Redacted]",
      "payment-signature": "[Redacted]",
      accept: "*/*",
    });
  });
});
