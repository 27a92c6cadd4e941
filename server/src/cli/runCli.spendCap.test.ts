import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exampleReport } from "@presend/client/exampleReport";
import { fakePaidApi } from "@presend/client/testing";
import { afterEach, describe, expect, it } from "vitest";
import { exitCodes, runCli } from "./runCli";

// PRESEND_SPEND_CAP is what one run may spend: a check above it is refused before anything is
// signed. The API is the client's stand-in (it signs like the server), so no chain is needed.
describe("runCli: PRESEND_SPEND_CAP", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const run = async (spendCap: string, prepare?: (configDir: string) => void) => {
    const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
    const api = await fakePaidApi({
      payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
      report: exampleReport({ address, checkedAt: new Date() }),
    });
    const configDir = mkdtempSync(join(tmpdir(), "presend-cap-"));
    dirs.push(configDir);
    prepare?.(configDir);
    let stderr = "";
    const code = await runCli(["check", address, "--no-channel"], {
      env: {
        PRESEND_URL: "http://api.test",
        PRESEND_PRIVATE_KEY: `0x${"66".repeat(32)}`,
        PRESEND_SPEND_CAP: spendCap,
      },
      stdout: () => undefined,
      stderr: (text) => {
        stderr += text;
      },
      fetch: api.fetch,
      configDir,
    });
    return { code, stderr, payments: api.payments(), configDir };
  };

  it("refuses a check that costs more than the cap before signing: nothing paid", async () => {
    const { code, stderr, payments } = await run("0.005");
    expect(code, stderr).toBe(exitCodes.refusedToPay);
    expect(stderr).toMatch(/Spend cap reached.*PRESEND_SPEND_CAP/);
    expect(stderr).toMatch(/charged: no/);
    expect(payments).toBe(0);
  });

  it("a daily ledger that cannot be opened is refused by its file and what to do with it, never as a cap to raise", async () => {
    const { code, stderr, payments, configDir } = await run("0.10", (dir) =>
      mkdirSync(join(dir, "spend.sqlite")),
    );
    expect(code, stderr).toBe(exitCodes.refusedToPay);
    expect(stderr).toContain(`The daily spend ledger ${join(configDir, "spend.sqlite")}`);
    expect(stderr).toMatch(/move it away/);
    expect(stderr).not.toMatch(/raise the cap|PRESEND_SPEND_CAP|PRESEND_CHANNEL_DEPOSIT/);
    expect(stderr).toMatch(/charged: no/);
    expect(payments).toBe(0);
  });

  it("pays a check that fits the cap", async () => {
    const { code, stderr, payments } = await run("0.01");
    expect(code, stderr).toBe(exitCodes.ok);
    expect(payments).toBe(1);
  });
});
