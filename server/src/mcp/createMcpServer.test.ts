import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts, devnetPrivateKey, senderWorld } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freePort } from "../http/freePort";
import { type Listening, listen } from "../http/listen";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { startTamperingProxy, type TamperingProxy } from "../payments/testing/startTamperingProxy";
import { createMcpServer } from "./createMcpServer";
import { runMcpServer } from "./runMcpServer";

const bin = fileURLToPath(new URL("../../bin/presend.js", import.meta.url));
// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = shared.world.accounts.payer;
const target = devnetAccounts.activeOnBase.address;

/** A tool call as a host makes it; the answer as the tool result it is. */
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
/** A tool result's text, as a model reads it. */
const text = (result: CallToolResult) =>
  result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");

/** A paid stack that offers channels (it holds a receiver authorizer), served on a port of its own. */
async function serveStackWithChannels(): Promise<{ stack: PaidStack; server: Listening }> {
  const port = await freePort();
  const stack = await startPaidStack({
    world: shared.world,
    publicUrl: `http://127.0.0.1:${port}`,
    receiverAuthorizerKey: devnetPrivateKey(`lane-${shared.lane.index}-receiver-authorizer`),
  });
  return { stack, server: await listen(stack.app, { port }) };
}

/** `npx presend mcp` as an MCP host starts it: the bin over stdio, with PATH and `env` only. */
const presendMcpOverStdio = (env: Record<string, string>) =>
  new StdioClientTransport({
    command: process.execPath,
    args: [bin, "mcp"],
    env: { PATH: process.env.PATH ?? "", ...env },
    stderr: "pipe",
  });

describe("presend mcp (stdio), driven by the MCP SDK's own client against the local world", () => {
  let stack: PaidStack;
  let server: Listening;
  let proxy: TamperingProxy;
  const dirs: string[] = [];
  const clients: Client[] = [];

  // `npx presend mcp` as an MCP host starts it: the bin, over stdio.
  const connect = async (env: Record<string, string>) => {
    const configHome = mkdtempSync(join(tmpdir(), "presend-mcp-"));
    dirs.push(configHome);
    const client = new Client({ name: "presend-test", version: "1.0.0" });
    await client.connect(
      presendMcpOverStdio({
        XDG_CONFIG_HOME: configHome,
        PRESEND_PRIVATE_KEY: payer.privateKey,
        ...env,
      }),
    );
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    const port = await freePort();
    stack = await startPaidStack({ world: shared.world, publicUrl: `http://127.0.0.1:${port}` });
    server = await listen(stack.app, { port });
    proxy = await startTamperingProxy(server.url);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await proxy?.close();
    await server?.close();
    await stack?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("lists five tools with their prices and the session cap; validate is free, check and deep pay, the cap refuses the next", async () => {
    const client = await connect({ PRESEND_URL: server.url, PRESEND_SPEND_CAP: "0.07" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "check",
      "close_channel",
      "deep",
      "receipt",
      "validate",
    ]);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    // The paid tools move money: a host must not take them for reads it may run unasked.
    expect(byName.check?.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.deep?.annotations).toMatchObject({ readOnlyHint: false });
    expect(byName.receipt?.description).toMatch(/Free/);
    expect(byName.validate?.description).toMatch(/Costs nothing/);
    // Money as people read it, in one form: "$0.10", never formatUnits' "0.1".
    expect(byName.check?.description).toContain("Price: $0.01 in USDC on Base");
    expect(byName.deep?.description).toContain("Price: $0.05 in USDC on Base");
    expect(byName.check?.description).toContain("at most $0.07 in total");
    expect(byName.check?.description).toContain("at most $1.00 a day (UTC)");
    // The first paid call moves a channel's whole deposit, not the price: the host is told.
    expect(byName.check?.description).toContain(
      "the session's first paid call deposits ten checks' worth at the offered price, at most $0.07 into it",
    );
    for (const tool of tools) expect(tool.description).not.toMatch(/USD \d|base units/);

    const start = await stack.usdcBalance(payer.address);
    const validated = await call(client, "validate", { address: target.toLowerCase() });
    expect(validated.isError).toBeFalsy();
    expect(validated.structuredContent).toMatchObject({
      valid: true,
      checksum: { status: "missing" },
    });
    expect(await stack.usdcBalance(payer.address)).toBe(start);

    const checked = await call(client, "check", { address: target, chain: "base" });
    expect(checked.isError).toBeFalsy();
    expect(checked.structuredContent).toMatchObject({
      level: expect.any(String),
      headline: expect.any(String),
      next: expect.any(String),
      text: expect.stringContaining(target),
      settlement: { network: "eip155:8453", payer: payer.address },
      report: { address: target },
    });
    expect(text(checked)).toMatch(/^(OK|CAUTION|WARN|DANGER): /);
    expect(text(checked)).toMatch(/Next: /);
    expect(await stack.usdcBalance(payer.address)).toBe(start - 10_000n);

    const deep = await call(client, "deep", { address: target });
    expect(deep.isError).toBeFalsy();
    expect(deep.structuredContent).toMatchObject({ report: { others: expect.any(Array) } });
    expect(
      (deep.structuredContent as { report: { others: unknown[] } }).report.others,
    ).toHaveLength(4);
    expect(await stack.usdcBalance(payer.address)).toBe(start - 60_000n);

    // The same check again is read back signed in (Sign-In-With-X): nothing charged, the cap
    // untouched.
    const again = await call(client, "check", { address: target, chain: "base" });
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({ report: checked.structuredContent?.report });
    expect(await stack.usdcBalance(payer.address)).toBe(start - 60_000n);

    // 0.06 spent of 0.07: another 0.01 check fits (this one with the sender), then the cap refuses.
    expect(byName.check?.inputSchema.properties).toHaveProperty("from");
    const withSender = await call(client, "check", {
      address: senderWorld.freshLookalike,
      from: devnetAccounts.poisoningVictim.address,
    });
    expect(withSender.isError).toBeFalsy();
    expect(withSender.structuredContent).toMatchObject({
      level: "danger",
      report: { from: devnetAccounts.poisoningVictim.address },
    });
    const refused = await call(client, "check", { address: devnetAccounts.sweptOnBase.address });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Refused to pay \(cap_reached\).*Charged: no\./s);
    expect(await stack.usdcBalance(payer.address)).toBe(start - 70_000n);
  });

  it("refuses a forged report as a tool error that says it was charged", async () => {
    proxy.set({
      after: async (request, upstream) => {
        if (!request.headers.has("payment-signature") || upstream.status !== 200) return upstream;
        const report = await upstream.json();
        const forged = {
          ...report,
          verdict: { ...report.verdict, level: "ok", headline: "Safe to send" },
        };
        return new Response(JSON.stringify(forged), { status: 200, headers: upstream.headers });
      },
    });
    const client = await connect({ PRESEND_URL: proxy.url });
    const result = await call(client, "check", { address: target });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/Forged report refused/);
    expect(text(result)).toMatch(/Charged: yes \(settlement 0x[0-9a-f]{64}\)/);
    expect(text(result)).not.toMatch(/Safe to send/);
  });

  it("charged unknown: the error names the payment id, and calling again with it gets the report, charged once", async () => {
    // The paid answer and the receipts are lost on the way back.
    proxy.set({
      after: async (request, upstream) =>
        request.headers.has("payment-signature") || request.path.startsWith("/receipts")
          ? "drop"
          : upstream,
    });
    const client = await connect({ PRESEND_URL: proxy.url });
    const before = await stack.usdcBalance(payer.address);
    const lost = await call(client, "check", { address: target });
    expect(lost.isError).toBe(true);
    expect(text(lost)).toMatch(/Charged: unknown/);
    // The client's message already says "Charged: unknown": the tool's own line must not
    // contradict it.
    expect(text(lost)).not.toMatch(/Charged: (no|yes)/);
    const retry = /call check again with (\{.*?\}):/.exec(text(lost));
    expect(retry?.[1]).toBeDefined();
    const args = JSON.parse(retry?.[1] ?? "{}");
    expect(args).toMatchObject({ address: target, chain: "base", paymentId: expect.any(String) });

    proxy.set(null);
    const again = await call(client, "check", args);
    expect(again.isError).toBeFalsy();
    expect(again.structuredContent).toMatchObject({
      paymentId: args.paymentId,
      report: { address: target },
    });
    expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
  });

  it("a paid call slower than the host waits says charged: unknown in time, and the same call again gets its outcome, paid once", async () => {
    // The server answers the paid request late: past what the tool may take before the host's
    // request timeout (shortened here), within what the client waits.
    let paidRequests = 0;
    proxy.set({
      after: async (request, upstream) => {
        if (!request.headers.has("payment-signature")) return upstream;
        paidRequests += 1;
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return upstream;
      },
    });
    const presend = createPresendClient({
      url: proxy.url,
      signer: privateKeyToAccount(payer.privateKey),
      pinStore: createMemoryPinStore(),
    });
    const mcp = createMcpServer({
      client: presend,
      payer: payer.address,
      spendCapUnits: 100_000n,
      dailyCapUnits: 1_000_000n,
      version: "test",
      answerWithinMs: 1_000,
    });
    const [hostSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const host = new Client({ name: "presend-test", version: "1.0.0" });
    await host.connect(hostSide);
    clients.push(host);
    try {
      const address = devnetAccounts.delegatedOnBase.address;
      const before = await stack.usdcBalance(payer.address);
      const first = await call(host, "check", { address });
      expect(first.isError).toBe(true);
      expect(text(first)).toMatch(/Charged: unknown\./);
      expect(text(first)).not.toMatch(/Charged: (no|yes)/);
      const again = /call check again with (\{.*?\})/.exec(text(first))?.[1];
      expect(again, text(first)).toBeDefined();
      // As the agent is told: the same call again, as often as it still says it is waiting.
      let second = await call(host, "check", JSON.parse(again ?? "{}"));
      for (
        let tries = 0;
        second.isError && /still waiting/.test(text(second)) && tries < 10;
        tries++
      )
        second = await call(host, "check", JSON.parse(again ?? "{}"));
      expect(second.isError, text(second)).toBeFalsy();
      expect(second.structuredContent).toMatchObject({ report: { address } });
      expect(paidRequests).toBe(1);
      expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
    } finally {
      proxy.set(null);
    }
  });

  /** The MCP server in this process over an in-memory pair, as the host's SDK client sees it. */
  const inMemoryHost = async (options: Parameters<typeof createMcpServer>[0]) => {
    const [hostSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(options).connect(serverSide);
    const host = new Client({ name: "presend-test", version: "1.0.0" });
    await host.connect(hostSide);
    clients.push(host);
    return host;
  };

  it("validate echoes a 5,000-character input shortened, marked so, never whole", async () => {
    const host = await inMemoryHost({
      client: createPresendClient({ url: server.url, pinStore: createMemoryPinStore() }),
      payer: null,
      spendCapUnits: 100_000n,
      dailyCapUnits: 1_000_000n,
      version: "test",
    });
    const pasted = `0x${"a".repeat(4990)}deadbeef`;
    const validated = await call(host, "validate", { address: pasted });
    expect(validated.isError).toBeFalsy();
    expect(validated.structuredContent).toMatchObject({ valid: false, normalized: null });
    expect(text(validated)).toContain('"0xaaaaaaaa…aadeadbeef" (shortened: 5000 characters)');
    expect(text(validated).length).toBeLessThan(400);
  });

  it("validate against a server that never answers says so before the host gives up: a tool error, charged: no", async () => {
    // Not presend: a real HTTP server that takes every request and never answers it.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      // The host's request timeout and the tool's wait, both shortened alike (60 s and 50 s).
      const host = await inMemoryHost({
        client: createPresendClient({
          url: `http://127.0.0.1:${port}`,
          pinStore: createMemoryPinStore(),
        }),
        payer: null,
        spendCapUnits: 100_000n,
        dailyCapUnits: 1_000_000n,
        version: "test",
        answerWithinMs: 1_000,
      });
      const answer = (await host.callTool(
        { name: "validate", arguments: { address: target } },
        undefined,
        { timeout: 3_000 },
      )) as CallToolResult;
      expect(answer.isError).toBe(true);
      expect(text(answer)).toBe(
        "presend could not validate: no answer from the presend server within 1 s. Charged: no (validate is free). Call validate again later.",
      );
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it("a key with no USDC is told in a sentence: its address, the price, nothing charged, what to do", async () => {
    const penniless = privateKeyToAccount(
      devnetPrivateKey(`lane-${shared.lane.index}-mcp-penniless-payer`),
    );
    expect(await stack.usdcBalance(penniless.address)).toBe(0n);
    const host = await inMemoryHost({
      client: createPresendClient({
        url: server.url,
        signer: penniless,
        pinStore: createMemoryPinStore(),
      }),
      payer: penniless.address,
      spendCapUnits: 100_000n,
      dailyCapUnits: 1_000_000n,
      version: "test",
    });
    const result = await call(host, "check", { address: target });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain(
      `The paying address ${penniless.address} holds too little USDC on Base for this check's price of $0.01. The server refused the payment before settling it: nothing was charged. Send USDC on Base to ${penniless.address}, then check again.`,
    );
    expect(text(result)).not.toMatch(/invalid_exact_evm_insufficient_balance/);
    expect(text(result)).toMatch(/Charged: no\.$/);
  });

  it("a server that answers garbage, and one that is not there: each tool error reads as sentences, the charge stated once after a period", async () => {
    // Not presend: a real HTTP server that answers every request with a 200 whose body is not JSON.
    const garbage = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{not json");
    });
    await new Promise<void>((resolve) => garbage.listen(0, "127.0.0.1", resolve));
    const { port } = garbage.address() as AddressInfo;
    const nobody = `http://127.0.0.1:${await freePort()}`;
    try {
      for (const url of [`http://127.0.0.1:${port}`, nobody]) {
        const host = await inMemoryHost({
          client: createPresendClient({
            url,
            signer: privateKeyToAccount(devnetPrivateKey(`lane-${shared.lane.index}-mcp-garbage`)),
            pinStore: createMemoryPinStore(),
            channel: { voucherSigner: privateKeyToAccount(generatePrivateKey()) },
          }),
          payer: null,
          spendCapUnits: 100_000n,
          dailyCapUnits: 1_000_000n,
          version: "test",
        });
        const answers = [
          await call(host, "validate", { address: target }),
          await call(host, "check", { address: target }),
          await call(host, "close_channel"),
        ];
        for (const answer of answers) {
          expect(answer.isError, text(answer)).toBe(true);
          expect(text(answer)).toMatch(/[.)] Charged: no[ .]/);
          expect(text(answer)).not.toMatch(/\.\.|[a-z0-9] Charged/);
        }
      }
    } finally {
      await new Promise((resolve) => garbage.close(resolve));
    }
  });

  it("close_channel against a refund challenge without an accepts list refuses it in presend's words: charged: no", async () => {
    // Not presend: a real HTTP server whose 402 challenge decodes, but holds no accepts list.
    const challenge = encodePaymentRequiredHeader({
      x402Version: 2,
      resource: {
        url: "http://127.0.0.1/check",
        description: "check",
        mimeType: "application/json",
      },
    } as PaymentRequired);
    const malformed = createServer((_request, response) => {
      response.writeHead(402, {
        "content-type": "application/json",
        "payment-required": challenge,
      });
      response.end("{}");
    });
    await new Promise<void>((resolve) => malformed.listen(0, "127.0.0.1", resolve));
    const { port } = malformed.address() as AddressInfo;
    try {
      const host = await inMemoryHost({
        client: createPresendClient({
          url: `http://127.0.0.1:${port}`,
          signer: privateKeyToAccount(generatePrivateKey()),
          pinStore: createMemoryPinStore(),
          channel: { voucherSigner: privateKeyToAccount(generatePrivateKey()) },
        }),
        payer: privateKeyToAccount(generatePrivateKey()).address,
        spendCapUnits: 100_000n,
        dailyCapUnits: 1_000_000n,
        version: "test",
      });
      const closed = await call(host, "close_channel");
      expect(closed.isError).toBe(true);
      expect(text(closed)).toBe(
        "The channel was not closed: The server's payment challenge is not an x402 v2 one (PaymentRequired), so no refund was made. Charged: no.",
      );
    } finally {
      await new Promise((resolve) => malformed.close(resolve));
    }
  });

  it("an outcome kept past the host's wait expires: the same call later is a new check, and its answer names the first one's receipt id, whose report receipt fetches", async () => {
    // Only the first paid request is answered late: past the host's wait, within the client's.
    let paidRequests = 0;
    proxy.set({
      after: async (request, upstream) => {
        if (!request.headers.has("payment-signature")) return upstream;
        paidRequests += 1;
        if (paidRequests === 1) await new Promise((resolve) => setTimeout(resolve, 4_000));
        return upstream;
      },
    });
    const logged: string[] = [];
    const host = await inMemoryHost({
      client: createPresendClient({
        url: proxy.url,
        signer: privateKeyToAccount(payer.privateKey),
        pinStore: createMemoryPinStore(),
      }),
      payer: payer.address,
      spendCapUnits: 100_000n,
      dailyCapUnits: 1_000_000n,
      version: "test",
      answerWithinMs: 2_000,
      keepOutcomeMs: 1_000,
      log: (line) => logged.push(line),
    });
    try {
      const address = devnetAccounts.receiveOnlyOnBase.address;
      const before = await stack.usdcBalance(payer.address);
      const first = await call(host, "check", { address });
      expect(text(first)).toMatch(/Charged: unknown\./);
      expect(text(first)).toContain("kept in this session for 1 s after it arrives");
      // The first outcome arrives (charged), nobody asks for it, its keeping runs out.
      await vi.waitFor(() => expect(logged).toHaveLength(1), { timeout: 15_000, interval: 100 });
      expect(logged[0]).toMatch(/finished after its answer was given up: charged yes/);
      // As the agent is told: the same call again while it says it is still waiting (a loaded
      // machine may take longer than the host's wait over the new check too).
      let later = await call(host, "check", { address });
      const answers = [later];
      for (let tries = 0; tries < 10 && /still waiting/.test(text(later)); tries++) {
        later = await call(host, "check", { address });
        answers.push(later);
      }
      expect(later.isError, text(later)).toBeFalsy();
      // A new check, paid on its own: the kept outcome was not handed out again.
      expect(paidRequests).toBe(2);
      expect(await stack.usdcBalance(payer.address)).toBe(before - 20_000n);
      const told = answers.map(text).join("\n");
      expect(told.match(/An earlier check call/g), told).toHaveLength(1);
      const id = /call receipt with (\{"id":"0x[0-9a-f]{64}"\})/.exec(told)?.[1];
      expect(id, told).toBeDefined();
      const fetched = await call(host, "receipt", JSON.parse(id ?? "{}"));
      expect(fetched.isError, text(fetched)).toBeFalsy();
      expect(fetched.structuredContent).toMatchObject({ report: { address } });
      // Told once: the next answer carries no note.
      const validated = await call(host, "validate", { address });
      expect(text(validated)).not.toContain("An earlier check call");
    } finally {
      proxy.set(null);
    }
  });

  it("answers the paid tools with a clear error when no key is configured", async () => {
    const client = await connect({ PRESEND_URL: server.url, PRESEND_PRIVATE_KEY: "" });
    const result = await call(client, "check", { address: target });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/no_signer.*Charged: no\./s);
    // Said once, with the setting to add: not the client's sentence and then the same again.
    expect(text(result).match(/No paying key is configured/g)).toHaveLength(1);
    // Each tool that needs the key names the setting the host's user must add.
    const closed = await call(client, "close_channel");
    const fetched = await call(client, "receipt", { id: `0x${"1".repeat(64)}` });
    for (const answer of [result, closed, fetched]) {
      expect(answer.isError).toBe(true);
      expect(text(answer)).toContain("set PRESEND_PRIVATE_KEY");
    }
    expect(text(closed)).not.toMatch(/No payment channel is configured/);
  });
});

describe("presend mcp's close_channel, over a channel the session opened", () => {
  let stack: PaidStack;
  let server: Listening;
  let client: Client;
  const configHome = mkdtempSync(join(tmpdir(), "presend-mcp-channel-"));
  const price = routePrices.check;
  const payerKey = devnetPrivateKey(`lane-${shared.lane.index}-mcp-channel-payer`);
  const channelPayer = privateKeyToAccount(payerKey);

  beforeAll(async () => {
    ({ stack, server } = await serveStackWithChannels());
    await shared.fund(channelPayer.address, 10n * price);
    client = new Client({ name: "presend-test", version: "1.0.0" });
    await client.connect(
      presendMcpOverStdio({
        XDG_CONFIG_HOME: configHome,
        PRESEND_PRIVATE_KEY: payerKey,
        PRESEND_URL: server.url,
        PRESEND_CHANNEL_DEPOSIT: "0.03",
        PRESEND_SPEND_CAP: "0.05",
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
    await stack?.stop();
    rmSync(configHome, { recursive: true, force: true });
  });

  it("says what came back, and the cap it credits pays for the next channel's deposit", async () => {
    const start = await stack.usdcBalance(channelPayer.address);
    // Two checks over one deposit of three: the cap holds the deposit whole (0.03 of 0.05).
    for (const address of [target, devnetAccounts.sweptOnBase.address]) {
      expect((await call(client, "check", { address })).isError).toBeFalsy();
    }
    const closed = await call(client, "close_channel");
    expect(closed.isError, text(closed)).toBeFalsy();
    expect(closed.structuredContent).toMatchObject({
      transaction: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      refunded: String(price),
    });
    expect(text(closed)).toMatch(/\$0\.01 came back/);
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 2n * price);
    // 0.02 held after the credit: a new deposit of 0.03 fits the 0.05 cap (0.06 would not).
    const next = await call(client, "check", { address: devnetAccounts.receiveOnlyOnBase.address });
    expect(next.isError, text(next)).toBeFalsy();
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 5n * price);
    expect(await call(client, "close_channel")).toMatchObject({
      structuredContent: { refunded: String(2n * price) },
    });
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 3n * price);
  });

  it("closing with nothing left to refund is a tool error that says nothing was charged", async () => {
    const again = await call(client, "close_channel");
    expect(again.isError).toBe(true);
    expect(text(again)).toMatch(/^The channel was not closed: .*Charged: no\.$/s);
  });

  it("pays through a channel by default (ten checks' deposit within the cap); PRESEND_CHANNEL=off pays each check on its own", async () => {
    const key = devnetPrivateKey(`lane-${shared.lane.index}-mcp-default-payer`);
    const wallet = privateKeyToAccount(key);
    await shared.fund(wallet.address, 20n * price);
    const session = async (env: Record<string, string>) => {
      const home = mkdtempSync(join(tmpdir(), "presend-mcp-default-"));
      const own = new Client({ name: "presend-test", version: "1.0.0" });
      await own.connect(
        presendMcpOverStdio({
          XDG_CONFIG_HOME: home,
          PRESEND_PRIVATE_KEY: key,
          PRESEND_URL: server.url,
          ...env,
        }),
      );
      return {
        call: async (name: string, args: Record<string, unknown> = {}) =>
          (await own.callTool({ name, arguments: args })) as CallToolResult,
        close: async () => {
          await own.close();
          rmSync(home, { recursive: true, force: true });
        },
      };
    };
    const start = await stack.usdcBalance(wallet.address);
    const byDefault = await session({});
    try {
      const paid = await byDefault.call("check", { address: target });
      expect(paid.isError, text(paid)).toBeFalsy();
      // The default deposit: ten checks at the offered price, the whole default cap (0.10).
      expect(await stack.usdcBalance(wallet.address)).toBe(start - 10n * price);
      expect(await byDefault.call("close_channel")).toMatchObject({
        structuredContent: { refunded: String(9n * price) },
      });
    } finally {
      await byDefault.close();
    }
    const off = await session({ PRESEND_CHANNEL: "off" });
    try {
      const paid = await off.call("check", { address: devnetAccounts.sweptOnBase.address });
      expect(paid.isError, text(paid)).toBeFalsy();
      expect(await stack.usdcBalance(wallet.address)).toBe(start - 2n * price);
    } finally {
      await off.close();
    }
  });

  it("answers four paid tool calls made at once, each paid once over one deposit", async () => {
    // An agent calling tools in parallel: the session's client queues its channel payments (the
    // server takes one request per channel at a time; side by side all but one were refused).
    // Not held on a timer: each unpaid challenge waits until all four calls have asked.
    const key = devnetPrivateKey(`lane-${shared.lane.index}-mcp-concurrent-payer`);
    const wallet = privateKeyToAccount(key);
    await shared.fund(wallet.address, 20n * price);
    const port = await freePort();
    const own = await startPaidStack({
      world: shared.world,
      publicUrl: `http://127.0.0.1:${port}`,
      receiverAuthorizerKey: devnetPrivateKey(`lane-${shared.lane.index}-receiver-authorizer`),
    });
    const calls = [
      ["check", target],
      ["deep", devnetAccounts.sweptOnBase.address],
      ["check", devnetAccounts.receiveOnlyOnBase.address],
      ["check", devnetAccounts.delegatedOnBase.address],
    ] as const;
    let asked = 0;
    let allAsked = () => {};
    const everyoneAsked = new Promise<void>((resolve) => {
      allAsked = resolve;
    });
    const barrier = await listen(
      {
        fetch: async (request: Request) => {
          const challenge =
            request.method === "POST" &&
            !request.headers.has("payment-signature") &&
            !request.headers.has("sign-in-with-x");
          const answer = await own.app.request(request);
          if (challenge && answer.status === 402) {
            asked += 1;
            if (asked === calls.length) allAsked();
            await everyoneAsked;
          }
          return answer;
        },
      },
      { port },
    );
    const home = mkdtempSync(join(tmpdir(), "presend-mcp-concurrent-"));
    const session = new Client({ name: "presend-test", version: "1.0.0" });
    try {
      await session.connect(
        presendMcpOverStdio({
          XDG_CONFIG_HOME: home,
          PRESEND_PRIVATE_KEY: key,
          PRESEND_URL: barrier.url,
          PRESEND_CHANNEL_DEPOSIT: "0.10",
          PRESEND_SPEND_CAP: "0.20",
        }),
      );
      const start = await own.usdcBalance(wallet.address);
      const results = (await Promise.all(
        calls.map(([name, address]) => session.callTool({ name, arguments: { address } })),
      )) as CallToolResult[];
      for (const result of results) expect(result.isError, text(result)).toBeFalsy();
      // One deposit of 0.10 for all four (0.08 charged), the rest back when the channel closes.
      expect(await own.usdcBalance(wallet.address)).toBe(start - 10n * price);
      const closed = (await session.callTool({ name: "close_channel" })) as CallToolResult;
      expect(closed.structuredContent).toMatchObject({ refunded: String(2n * price) });
      expect(await own.usdcBalance(wallet.address)).toBe(start - 8n * price);
    } finally {
      await session.close();
      await barrier.close();
      await own.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("eight paid tool calls at once as the channel runs out: six paid once over the deposits the cap holds, two refused saying charged: no, reconciled with the chain", async () => {
    // Deposits of three checks in a session cap of seven: the first deposit and one top-up fit,
    // a third does not. Every call's answer says truly whether it was charged.
    const key = devnetPrivateKey(`lane-${shared.lane.index}-mcp-runs-out-payer`);
    const wallet = privateKeyToAccount(key);
    await shared.fund(wallet.address, 20n * price);
    const { stack: own, server: direct } = await serveStackWithChannels();
    const targets = Array.from(
      { length: 8 },
      () => privateKeyToAccount(generatePrivateKey()).address,
    );
    const home = mkdtempSync(join(tmpdir(), "presend-mcp-runs-out-"));
    const session = new Client({ name: "presend-test", version: "1.0.0" });
    try {
      await session.connect(
        presendMcpOverStdio({
          XDG_CONFIG_HOME: home,
          PRESEND_PRIVATE_KEY: key,
          PRESEND_URL: direct.url,
          PRESEND_CHANNEL_DEPOSIT: "0.03",
          PRESEND_SPEND_CAP: "0.07",
        }),
      );
      const start = await own.usdcBalance(wallet.address);
      const results = (await Promise.all(
        targets.map((address) => session.callTool({ name: "check", arguments: { address } })),
      )) as CallToolResult[];
      const paid = results.filter((result) => !result.isError);
      expect(paid, results.map(text).join("\n")).toHaveLength(6);
      for (const result of results.filter((each) => each.isError)) {
        expect(text(result)).toMatch(/charged: no/i);
      }
      // Two deposits, spent whole on the six checks.
      expect(start - (await own.usdcBalance(wallet.address))).toBe(6n * price);
      await own.payments.channels?.manager().claim();
      await own.reconcile();
      const open = await own.records.unresolved();
      expect(
        open.filter((record) => record.payer.toLowerCase() === wallet.address.toLowerCase()),
      ).toEqual([]);
      expect(await own.records.count("settled")).toBe(6);
    } finally {
      await session.close();
      await direct.close();
      await own.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("does not start with a deposit above the session's spend cap", async () => {
    await expect(
      runMcpServer(
        {
          PRESEND_PRIVATE_KEY: payerKey,
          PRESEND_URL: server.url,
          PRESEND_CHANNEL_DEPOSIT: "0.06",
          PRESEND_SPEND_CAP: "0.05",
        },
        join(configHome, "presend"),
      ),
    ).rejects.toThrow(
      /PRESEND_CHANNEL_DEPOSIT \(\$0\.06\) is above the spend cap \(\$0\.05, the lower of PRESEND_SPEND_CAP and PRESEND_DAILY_CAP\)/,
    );
  });
});

describe("presend mcp when the answer of a check paid over a channel is lost", () => {
  let stack: PaidStack;
  let server: Listening;
  let proxy: TamperingProxy;
  let client: Client;
  const configHome = mkdtempSync(join(tmpdir(), "presend-mcp-lost-"));
  const price = routePrices.check;
  const payerKey = devnetPrivateKey(`lane-${shared.lane.index}-mcp-lost-payer`);
  const channelPayer = privateKeyToAccount(payerKey);

  beforeAll(async () => {
    ({ stack, server } = await serveStackWithChannels());
    proxy = await startTamperingProxy(server.url);
    await shared.fund(channelPayer.address, 10n * price);
    client = new Client({ name: "presend-test", version: "1.0.0" });
    await client.connect(
      presendMcpOverStdio({
        XDG_CONFIG_HOME: configHome,
        PRESEND_PRIVATE_KEY: payerKey,
        PRESEND_URL: proxy.url,
        PRESEND_BASE_RPC_URL: shared.world.chains.base.rpcUrl,
        PRESEND_CHANNEL_DEPOSIT: "0.05",
      }),
    );
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await server?.close();
    await stack?.stop();
    rmSync(configHome, { recursive: true, force: true });
  });

  it("names the receipt call that gets the report, and the next check resyncs and pays on over the same deposit", async () => {
    const start = await stack.usdcBalance(channelPayer.address);
    expect((await call(client, "check", { address: target })).isError).toBeFalsy();
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 5n * price);
    // The server charges the voucher; its answer and every /receipts read are lost.
    proxy.set({
      after: async (request, upstream) =>
        request.headers.has("payment-signature") || request.path.startsWith("/receipts")
          ? "drop"
          : upstream,
    });
    const lost = await call(client, "check", { address: devnetAccounts.sweptOnBase.address });
    proxy.set(null);
    expect(lost.isError).toBe(true);
    expect(text(lost).match(/Charged: unknown\./g)).toHaveLength(1);
    const receiptArgs = /call receipt with (\{.*?\})/.exec(text(lost))?.[1];
    expect(receiptArgs, text(lost)).toBeDefined();

    // Out of step with the server, the session resyncs from the escrow: no new deposit.
    const next = await call(client, "check", { address: devnetAccounts.receiveOnlyOnBase.address });
    expect(next.isError, text(next)).toBeFalsy();
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 5n * price);

    // Once a claim covers the lost voucher, receipt answers its report, verified.
    await stack.payments.channels?.manager().claim();
    const fetched = await call(client, "receipt", JSON.parse(receiptArgs ?? "{}"));
    expect(fetched.isError, text(fetched)).toBeFalsy();
    expect(fetched.structuredContent).toMatchObject({
      recovered: true,
      report: { address: devnetAccounts.sweptOnBase.address },
    });
    // Three checks charged once each: the close sends back the other two of the five.
    expect(await call(client, "close_channel")).toMatchObject({
      structuredContent: { refunded: String(2n * price) },
    });
    expect(await stack.usdcBalance(channelPayer.address)).toBe(start - 3n * price);
  });

  it("a session whose first check (its deposit) lost its answer pays the next one over that deposit, within a cap the deposit fills", async () => {
    const key = devnetPrivateKey(`lane-${shared.lane.index}-mcp-lost-deposit-payer`);
    const wallet = privateKeyToAccount(key);
    await shared.fund(wallet.address, 10n * price);
    const home = mkdtempSync(join(tmpdir(), "presend-mcp-lost-deposit-"));
    const own = new Client({ name: "presend-test", version: "1.0.0" });
    try {
      await own.connect(
        presendMcpOverStdio({
          XDG_CONFIG_HOME: home,
          PRESEND_PRIVATE_KEY: key,
          PRESEND_URL: proxy.url,
          PRESEND_BASE_RPC_URL: shared.world.chains.base.rpcUrl,
          PRESEND_CHANNEL_DEPOSIT: "0.05",
          PRESEND_SPEND_CAP: "0.05",
        }),
      );
      const start = await stack.usdcBalance(wallet.address);
      proxy.set({
        after: async (request, upstream) =>
          request.headers.has("payment-signature") ? "drop" : upstream,
      });
      const lost = (await own.callTool({
        name: "check",
        arguments: { address: target },
      })) as CallToolResult;
      proxy.set(null);
      expect(lost.isError).toBe(true);
      expect(text(lost)).toMatch(/Charged: unknown\./);
      // The deposit landed: the next check reads the channel from the escrow and pays with a
      // voucher, no second deposit (which the cap, filled by the first, would refuse).
      const next = (await own.callTool({
        name: "check",
        arguments: { address: devnetAccounts.receiveOnlyOnBase.address },
      })) as CallToolResult;
      expect(next.isError, text(next)).toBeFalsy();
      expect(await stack.usdcBalance(wallet.address)).toBe(start - 5n * price);
    } finally {
      proxy.set(null);
      await own.close();
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("receipt of an id nothing was charged for says so; a malformed id is refused by its schema", async () => {
    const unknown = await call(client, "receipt", { id: `0x${"ab".repeat(32)}` });
    expect(unknown.isError).toBe(true);
    expect(text(unknown)).toMatch(/Charged: no\.$/);
    const malformed = await call(client, "receipt", { id: "0x1234" });
    expect(malformed.isError).toBe(true);
  });
});
