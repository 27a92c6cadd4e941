import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger, logDestination } from "./createLogger";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("createLogger", () => {
  it("batches lines but shows a quiet server's line within the periodic flush, fields intact", async () => {
    const dir = mkdtempSync(join(tmpdir(), "presend-log-"));
    dirs.push(dir);
    const file = join(dir, "log.jsonl");
    const logger = createLogger({ level: "info", name: "presend-api" }, logDestination(file));
    logger.info({ reqId: "abc", route: "/validate", status: 200 }, "request");
    // One short line is below the 4 kB batch: it waits for the periodic flush (250 ms).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({
      level: 30,
      name: "presend-api",
      reqId: "abc",
      route: "/validate",
      status: 200,
      msg: "request",
    });
  });
});
