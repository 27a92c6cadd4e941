import { describe, expect, it } from "vitest";
import { receiptExitCodes, runReceiptCommand } from "./runReceiptCommand";

const id = `0x${"ab".repeat(32)}`;
const key = `0x${"11".repeat(32)}`;

describe("runReceiptCommand", () => {
  const run = async (argv: string[], env: Record<string, string> = {}) => {
    const err: string[] = [];
    const out: string[] = [];
    let asked = 0;
    const code = await runReceiptCommand(argv, {
      env: { PRESEND_URL: "http://127.0.0.1:9", PRESEND_PRIVATE_KEY: key, ...env },
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      configDir: "/nonexistent-presend-config",
      fetch: async () => {
        asked += 1;
        throw new TypeError("no request is expected");
      },
    });
    return { code, stderr: err.join("\n"), stdout: out.join("\n"), asked };
  };

  it.each([
    [[], /needs the id/],
    [["0x1234"], /0x followed by 64 hex/],
    [[id, "more"], /unexpected argument/],
    [[id, "--chain", "base"], /Unknown option/],
  ])("refuses %j as a usage error before any request", async (argv, message) => {
    const result = await run(argv);
    expect(result.code).toBe(receiptExitCodes.usage);
    expect(result.stderr).toMatch(message);
    expect(result.asked).toBe(0);
  });

  it("needs the paying key and an http(s) PRESEND_URL", async () => {
    expect(await run([id], { PRESEND_PRIVATE_KEY: "" })).toMatchObject({
      code: receiptExitCodes.usage,
      stderr: expect.stringMatching(/PRESEND_PRIVATE_KEY/),
      asked: 0,
    });
    expect(await run([id], { PRESEND_URL: "ftp://presend.example" })).toMatchObject({
      code: receiptExitCodes.usage,
      stderr: expect.stringMatching(/PRESEND_URL/),
      asked: 0,
    });
  });

  it("prints its usage with --help", async () => {
    const help = await run(["--help"]);
    expect(help.code).toBe(receiptExitCodes.ok);
    expect(help.stdout).toMatch(/^usage: presend receipt/);
  });
});
