import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { devnetAccounts, senderWorld } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { ReportSchema } from "@presend/shared/api/report";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { startTamperingProxy } from "../payments/testing/startTamperingProxy";
import { exitCodes, runCli } from "./runCli";

const run = promisify(execFile);
const bin = fileURLToPath(new URL("../../bin/presend.js", import.meta.url));
// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = shared.world.accounts.payer;
const target = devnetAccounts.activeOnBase.address;

describe("presend CLI against a real server on the local world", () => {
  let stack: PaidStack;
  let server: Listening;
  let configDir: string;
  const dirs: string[] = [];

  const cli = async (
    argv: string[],
    options: { fetch?: typeof fetch; env?: Record<string, string> } = {},
  ) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, {
      env: { PRESEND_URL: server.url, PRESEND_PRIVATE_KEY: payer.privateKey, ...options.env },
      stdout: (text) => out.push(text),
      stderr: (text) => err.push(text),
      configDir,
      ...(options.fetch && { fetch: options.fetch }),
    });
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  };
  const freshConfig = () => {
    configDir = mkdtempSync(join(tmpdir(), "presend-cli-"));
    dirs.push(configDir);
  };

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
  });
  afterAll(async () => {
    await server?.close();
    await stack?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("bin: `presend check` pays 0.01 USDC, prints the report and pins the key (spawned through tsx)", async () => {
    freshConfig();
    const before = await stack.usdcBalance(payer.address);
    const { stdout, stderr } = await run(process.execPath, [bin, "check", target], {
      env: {
        ...process.env,
        PRESEND_URL: server.url,
        PRESEND_PRIVATE_KEY: payer.privateKey,
        XDG_CONFIG_HOME: configDir,
      },
    });
    expect(stdout).toContain(target);
    expect(stderr).toMatch(/pinned attestation key presend-\d{4}-\d{2}/);
    expect(stderr).toMatch(/settlement 0x[0-9a-f]{64}/);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    const pins = JSON.parse(readFileSync(join(configDir, "presend", "pins.json"), "utf8"));
    expect(Object.keys(pins.servers)).toEqual([new URL(server.url).origin]);
  });

  it("bin: exit codes for usage errors and a free validate", async () => {
    const failed = await run(process.execPath, [bin, "check", "0x1234"], {
      env: { ...process.env, PRESEND_URL: server.url },
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: exitCodes.usage });
    const valid = await run(process.execPath, [bin, "validate", target, "--json"], {
      env: { ...process.env, PRESEND_URL: server.url },
    });
    expect(JSON.parse(valid.stdout)).toMatchObject({ valid: true, checksum: { status: "valid" } });
  });

  it("validate echoes a 5,000-character input shortened: its ends and its length, never the whole", async () => {
    freshConfig();
    const pasted = `0x${"a".repeat(4990)}deadbeef`;
    const result = await cli(["validate", pasted]);
    expect(result.code, result.stderr).toBe(exitCodes.invalidAddress);
    expect(result.stdout).toContain('"0xaaaaaaaa…aadeadbeef" (shortened: 5000 characters)');
    expect(result.stdout.length).toBeLessThan(400);
    const checked = await cli(["check", pasted]);
    expect(checked.code).toBe(exitCodes.usage);
    expect(checked.stderr).toContain("(shortened: 5000 characters)");
    expect(checked.stderr.length).toBeLessThan(400);
  });

  it("validate of a 20,000-character input says it is no address (exit 1), not that the server refused headers", async () => {
    freshConfig();
    const pasted = `0x${"a".repeat(20_000)}`;
    const result = await cli(["validate", pasted]);
    expect(result.code, result.stderr).toBe(exitCodes.invalidAddress);
    expect(result.stdout).toContain("(shortened: 20002 characters): invalid. Not an address");
    expect(result.stderr).toBe("");
  });

  it("a PRESEND_URL that is not an http(s) URL is a usage error naming it, before any request (no crash)", async () => {
    freshConfig();
    for (const argv of [["validate", target], ["check", target], ["close"]]) {
      const result = await cli(argv, { env: { PRESEND_URL: "not-a-url" } });
      expect(result.code, argv.join(" ")).toBe(exitCodes.usage);
      expect(result.stderr).toMatch(/^presend: PRESEND_URL must be the API's http\(s\) URL/);
    }
  });

  it("bin: `presend mcp` with a wrong setting says which in one line and exits 2, no stack trace", async () => {
    for (const env of [
      { PRESEND_URL: "not-a-url" },
      { PRESEND_PRIVATE_KEY: "0x12" },
      { PRESEND_SPEND_CAP: "ten" },
    ]) {
      const failed = await run(process.execPath, [bin, "mcp"], {
        env: { ...process.env, PRESEND_URL: server.url, ...env },
      }).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: exitCodes.usage });
      const stderr = (failed as { stderr: string }).stderr.trim();
      expect(stderr).toMatch(new RegExp(`^presend mcp: ${Object.keys(env)[0]} must`));
      expect(stderr.split("\n")).toHaveLength(1);
      expect(stderr).not.toContain("0x12");
    }
  });

  it("--json prints the deep report as JSON; the payer pays exactly 0.05", async () => {
    freshConfig();
    const before = await stack.usdcBalance(payer.address);
    const result = await cli(["deep", target, "--json", "--max-price", "0.05"]);
    expect(result.code).toBe(exitCodes.ok);
    const report = JSON.parse(result.stdout);
    expect(report.others).toHaveLength(4);
    expect(ReportSchema.safeParse(report).success).toBe(true);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 50_000n);
  });

  it("--from reads the sender's history: the planted lookalike is address poisoning; a bad --from costs nothing", async () => {
    freshConfig();
    const from = devnetAccounts.poisoningVictim.address;
    const result = await cli(["check", senderWorld.freshLookalike, "--from", from, "--json"]);
    expect(result.code).toBe(exitCodes.ok);
    const report = ReportSchema.parse(JSON.parse(result.stdout));
    expect(report.from).toBe(from);
    expect(report.verdict.reasons[0]?.code).toBe("address_poisoning");
    const before = await stack.usdcBalance(payer.address);
    const bad = await cli(["check", target, "--from", target]);
    expect(bad.code).toBe(exitCodes.usage);
    expect(bad.stderr).toMatch(/--from .*charged: no/);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
  });

  it("the same check twice pays once: the second is read back signed in (Sign-In-With-X)", async () => {
    freshConfig();
    const address = devnetAccounts.delegatedOnBase.address;
    const before = await stack.usdcBalance(payer.address);
    const first = await cli(["check", address, "--json"]);
    expect(first.code).toBe(exitCodes.ok);
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    const again = await cli(["check", address, "--json"]);
    expect(again.code).toBe(exitCodes.ok);
    expect(again.stderr).toMatch(
      /read again signed in; paid earlier \(settlement 0x[0-9a-f]{64}\)/,
    );
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("a check with --from after the same check without it pays for the sender's check: a report read again signed in is not made for that sender", async () => {
    freshConfig();
    const address = senderWorld.activeLookalike;
    const from = devnetAccounts.poisoningVictim.address;
    const before = await stack.usdcBalance(payer.address);
    const plain = await cli(["check", address, "--json"]);
    expect(plain.code, plain.stderr).toBe(exitCodes.ok);
    expect(ReportSchema.parse(JSON.parse(plain.stdout)).from).toBeUndefined();
    // The server's re-read window knows route, address and chain, not the sender: the report it
    // offers the sign-in has no sender's payments in it, so the client pays for this one.
    const withSender = await cli(["check", address, "--from", from, "--json"]);
    expect(withSender.code, withSender.stderr).toBe(exitCodes.ok);
    expect(withSender.stderr).not.toMatch(/read again signed in/);
    const report = ReportSchema.parse(JSON.parse(withSender.stdout));
    expect(report.from).toBe(from);
    expect(report.verdict.reasons.map((reason) => reason.code)).toContain("address_poisoning");
    expect(await stack.usdcBalance(payer.address)).toBe(before - 20_000n);
  });

  it("--max-price below the price refuses before signing anything", async () => {
    freshConfig();
    const before = await stack.usdcBalance(payer.address);
    const result = await cli(["deep", target, "--max-price", "0.01"]);
    expect(result.code).toBe(exitCodes.refusedToPay);
    expect(result.stderr).toMatch(/costs \$0\.05 in USDC, above the most you allow \(\$0\.01\)/);
    expect(result.stderr).toMatch(/charged: no/);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
  });

  it("payToSwappedInTransit: a 402 whose payTo differs from the attested one is refused", async () => {
    freshConfig();
    const thief = privateKeyToAccount(generatePrivateKey()).address;
    // A man in the middle rewrites the challenge to pay someone else.
    const tampering: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const header = response.headers.get("payment-required");
      if (response.status !== 402 || header === null) return response;
      const required = decodePaymentRequiredHeader(header);
      const swapped = {
        ...required,
        accepts: required.accepts.map((a) => ({ ...a, payTo: thief })),
      };
      const headers = new Headers(response.headers);
      headers.set("payment-required", encodePaymentRequiredHeader(swapped));
      return new Response(JSON.stringify(swapped), { status: 402, headers });
    };
    const before = await stack.usdcBalance(payer.address);
    const result = await cli(["check", target], { fetch: tampering });
    expect(result.code).toBe(exitCodes.refusedToPay);
    expect(result.stderr).toMatch(/attested payee is/);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    expect(await stack.usdcBalance(thief)).toBe(0n);
  });

  it("attestationKeyChanged: the same origin presenting another key is refused", async () => {
    freshConfig();
    expect((await cli(["check", target])).code).toBe(exitCodes.ok);
    // Another server (its own key) answering at the same origin.
    const impostor = await startPaidStack({ world: stack.world, publicUrl: server.url });
    try {
      const viaImpostor: typeof fetch = async (input, init) =>
        impostor.app.request(input instanceof Request ? input : new Request(input, init));
      const before = await stack.usdcBalance(payer.address);
      const result = await cli(["check", target], { fetch: viaImpostor });
      expect(result.code).toBe(exitCodes.refusedToPay);
      expect(result.stderr).toMatch(/attestation key changed/);
      expect(result.stderr).toMatch(/pins\.json/);
      expect(await stack.usdcBalance(payer.address)).toBe(before);
    } finally {
      await impostor.stop();
    }
  });

  it("explains a missing key and an unreachable server", async () => {
    freshConfig();
    const noKey = await cli(["check", target], { env: { PRESEND_PRIVATE_KEY: "" } });
    expect(noKey.code).toBe(exitCodes.usage);
    expect(noKey.stderr).toMatch(/PRESEND_PRIVATE_KEY/);
    const unreachable = await cli(["check", target], {
      env: { PRESEND_URL: "http://127.0.0.1:9" },
    });
    expect(unreachable.code).toBe(exitCodes.serverError);
    // Said once, naming the server: the client's message already does.
    expect(unreachable.stderr.match(/cannot reach/gi)).toHaveLength(1);
    expect(unreachable.stderr).toContain("Cannot reach http://127.0.0.1:9");
    expect(unreachable.stderr).toContain("(charged: no)");
    const validate = await cli(["validate", target], {
      env: { PRESEND_URL: "http://127.0.0.1:9" },
    });
    expect(validate.code).toBe(exitCodes.serverError);
    expect(validate.stderr.match(/cannot reach/gi)).toHaveLength(1);
    expect(validate.stderr).toContain("Cannot reach http://127.0.0.1:9");
  });

  it("truthful outcomes: a report cut off after settlement prints the settlement, then recovers it through /receipts", async () => {
    freshConfig();
    const proxy = await startTamperingProxy(server.url);
    try {
      proxy.set({
        after: async (request, upstream) => {
          if (!request.headers.has("payment-signature") || upstream.status !== 200) return upstream;
          return new Response((await upstream.text()).slice(0, 30), {
            status: 200,
            headers: upstream.headers,
          });
        },
      });
      const result = await cli(["check", target], { env: { PRESEND_URL: proxy.url } });
      expect(result.code).toBe(exitCodes.ok);
      expect(result.stdout).toContain(target);
      const settled = result.stderr.search(/settlement 0x[0-9a-f]{64}/);
      const recovered = result.stderr.indexOf("recovered through /receipts");
      expect(settled).toBeGreaterThanOrEqual(0);
      expect(recovered).toBeGreaterThan(settled);
    } finally {
      await proxy.close();
    }
  });

  it("truthful outcomes: an answer and its receipt dropped after settlement say charged: unknown (exit 6), never 'not charged'", async () => {
    freshConfig();
    const proxy = await startTamperingProxy(server.url);
    try {
      proxy.set({
        after: async (request, upstream) =>
          request.headers.has("payment-signature") || request.path.startsWith("/receipts")
            ? "drop"
            : upstream,
      });
      const before = await stack.usdcBalance(payer.address);
      const result = await cli(["check", target], { env: { PRESEND_URL: proxy.url } });
      expect(result.code).toBe(exitCodes.chargedNoReport);
      expect(result.stderr).toMatch(/charged: unknown/);
      expect(result.stderr).not.toMatch(/charged: no/);
      expect(result.stderr).toMatch(/to fetch the report/);
      expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);

      // The printed retry, run as printed (straight to the server): the report, charged once.
      const retry = /presend (check \S+ --chain \S+ --payment-id (\S+))$/m.exec(result.stderr);
      expect(retry?.[1]).toBeDefined();
      const again = await cli(retry?.[1]?.split(" ") ?? []);
      expect(again.code).toBe(exitCodes.ok);
      expect(again.stdout).toContain(target);
      expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
      expect(await stack.records.byPaymentId(retry?.[2] ?? "")).toMatchObject({
        status: "settled",
      });
    } finally {
      await proxy.close();
    }
  });

  it("`presend receipt` gets a lost paid report by the nonce the run named or by its settlement transaction; an id never charged is exit 1 (charged: no); a malformed id is a usage error", async () => {
    freshConfig();
    const proxy = await startTamperingProxy(server.url);
    try {
      proxy.set({
        after: async (request, upstream) =>
          request.headers.has("payment-signature") || request.path.startsWith("/receipts")
            ? "drop"
            : upstream,
      });
      const address = devnetAccounts.receiveOnlyOnBase.address;
      const before = await stack.usdcBalance(payer.address);
      const lost = await cli(["check", address], { env: { PRESEND_URL: proxy.url } });
      expect(lost.code).toBe(exitCodes.chargedNoReport);
      const nonce = /to fetch the report: presend receipt (0x[0-9a-f]{64})/.exec(lost.stderr)?.[1];
      expect(nonce, lost.stderr).toBeDefined();

      // Asked of the same PRESEND_URL (the key was pinned for its origin), the answers arriving.
      proxy.set(null);
      const again = (argv: string[]) => cli(argv, { env: { PRESEND_URL: proxy.url } });
      const byNonce = await again(["receipt", nonce ?? ""]);
      expect(byNonce.code, byNonce.stderr).toBe(exitCodes.ok);
      expect(byNonce.stdout).toContain(address);
      expect(byNonce.stderr).toMatch(/charged: yes/);
      const record = await stack.records.byAuthorization({
        payer: payer.address,
        nonce: nonce ?? "",
      });
      expect(record?.tx).toMatch(/^0x[0-9a-f]{64}$/);
      const byTransaction = await again(["receipt", record?.tx ?? "", "--json"]);
      expect(byTransaction.code, byTransaction.stderr).toBe(exitCodes.ok);
      expect(JSON.parse(byTransaction.stdout)).toMatchObject({ address });
      // Fetched twice, charged once.
      expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);

      const never = await again(["receipt", `0x${"ab".repeat(32)}`]);
      expect(never.code).toBe(1);
      expect(never.stderr).toMatch(/charged: no$/);
      for (const argv of [["receipt"], ["receipt", "0x1234"], ["receipt", nonce ?? "", "extra"]]) {
        const usage = await cli(argv, { env: { PRESEND_URL: "http://127.0.0.1:9" } });
        expect(usage.code, argv.join(" ")).toBe(exitCodes.usage);
      }
    } finally {
      await proxy.close();
    }
  });
});
