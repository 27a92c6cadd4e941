import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./createLogger";
import { reportErrors } from "./reportErrors";

describe("reportErrors", () => {
  it("writes each failure as one JSON line: the event, its level, the error's kind and short message", () => {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const logger = createLogger({ level: "warn", name: "presend-api" }, destination);
    const report = reportErrors(logger, "payment record failed", "error");
    report(new Error("database is locked\n    at Statement.run (/srv/app/db.ts:1:1)"));
    report("store closed");
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      expect.objectContaining({
        level: 50,
        msg: "payment record failed",
        error: { type: "Error", message: "database is locked" },
      }),
      expect.objectContaining({
        msg: "payment record failed",
        error: { type: "string", message: "store closed" },
      }),
    ]);
  });
});
