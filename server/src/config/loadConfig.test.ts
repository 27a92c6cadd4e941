import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./loadConfig";

describe("loadConfig", () => {
  it("defaults to the embedded local world on 127.0.0.1:8402", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      network: "local",
      host: "127.0.0.1",
      port: 8402,
      devnetFirstPort: 8545,
      rpcTimeoutMs: 4000,
      cacheTtlMs: 15000,
      rpcUrls: {},
    });
  });

  it("runs channels on the default schedule unless CHANNEL_*_SECS set another", () => {
    expect(loadConfig({}).channelSchedule).toEqual({
      claimIntervalSecs: 60,
      settleIntervalSecs: 300,
      refundIntervalSecs: 3_600,
      idleRefundSecs: 86_400,
    });
    const config = loadConfig({
      CHANNEL_CLAIM_INTERVAL_SECS: "1",
      CHANNEL_SETTLE_INTERVAL_SECS: "2",
      CHANNEL_REFUND_INTERVAL_SECS: "3",
      CHANNEL_IDLE_REFUND_SECS: "4",
    });
    expect(config.channelSchedule).toEqual({
      claimIntervalSecs: 1,
      settleIntervalSecs: 2,
      refundIntervalSecs: 3,
      idleRefundSecs: 4,
    });
  });

  it("reads per-chain RPC URL lists", () => {
    const config = loadConfig({ RPC_URLS_BASE: "https://a.example/rpc, https://b.example/rpc" });
    expect(config.rpcUrls.base).toEqual(["https://a.example/rpc", "https://b.example/rpc"]);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PAY_TO: "0xd8da6bf26964af9d7eed9e03e53415d37aa96045" }, "PAY_TO"],
    [{ RPC_URLS_POLYGON: "ftp://x" }, "RPC_URLS_POLYGON"],
    [{ PRESEND_NETWORK: "devnet" }, "PRESEND_NETWORK"],
    [{ PRESEND_NETWORK: "mainnet" }, "FACILITATOR_URL"],
    [{ PRESEND_NETWORK: "testnet" }, "PAY_TO"],
    [{ FACILITATOR_PROVIDER: "coinbase" }, "FACILITATOR_PROVIDER"],
    [{ FACILITATOR_PROVIDER: "cdp", CDP_API_KEY_ID: "id" }, "CDP_API_KEY_SECRET"],
    [{ FACILITATOR_PROVIDER: "payai", PAYAI_API_KEY_SECRET: "s" }, "PAYAI_API_KEY_ID"],
    [{ PRESEND_NETWORK: "mainnet", FACILITATOR_URL: "https://f.example" }, "ATTESTATION_KEY_FILE"],
    [{ FACILITATOR_PRIVATE_KEY: "0x1234" }, "FACILITATOR_PRIVATE_KEY"],
    [{ FACILITATOR_URL: "https://user:secret@f.example" }, "FACILITATOR_URL"],
    [{ HISTORY_RPC_URLS_BASE: "ftp://archive.example" }, "HISTORY_RPC_URLS_BASE"],
    [{ HISTORY_WINDOW_BLOCKS_ETHEREUM: "-5" }, "HISTORY_WINDOW_BLOCKS_ETHEREUM"],
    [{ CHANNEL_CLAIM_INTERVAL_SECS: "0" }, "CHANNEL_CLAIM_INTERVAL_SECS"],
    // Past a third of the withdraw delay: a payer's withdrawal could outrun the claims.
    [{ CHANNEL_CLAIM_INTERVAL_SECS: "301" }, "CHANNEL_CLAIM_INTERVAL_SECS"],
    [{ CHANNEL_SETTLE_INTERVAL_SECS: "1.5" }, "CHANNEL_SETTLE_INTERVAL_SECS"],
    [{ CHANNEL_REFUND_INTERVAL_SECS: "hourly" }, "CHANNEL_REFUND_INTERVAL_SECS"],
    [{ CHANNEL_REFUND_INTERVAL_SECS: "3000000" }, "CHANNEL_REFUND_INTERVAL_SECS"],
    [{ CHANNEL_IDLE_REFUND_SECS: "-1" }, "CHANNEL_IDLE_REFUND_SECS"],
  ])("rejects %j naming %s", (env, field) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`${field}(\\.\\d+)?: `));
  });

  describe("PUBLIC_URL on mainnet", () => {
    const mainnet = {
      PRESEND_NETWORK: "mainnet",
      FACILITATOR_URL: "https://f.example",
      PAY_TO: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    };

    it("is required, naming the setting and an example (a fallback from HOST reaches no one)", () => {
      expect(() => loadConfig({ ...mainnet, HOST: "0.0.0.0" })).toThrow(ConfigError);
      expect(() => loadConfig({ ...mainnet, HOST: "0.0.0.0" })).toThrow(
        /PUBLIC_URL: is required when PRESEND_NETWORK=mainnet.*PUBLIC_URL=https:\/\/presend\.example\.com/,
      );
    });

    it.each([
      ["http://presend.example.com", /is not https/],
      ["https://0.0.0.0:8402", /names this machine/],
      ["https://localhost", /names this machine/],
      ["https://api.localhost", /names this machine/],
      ["https://127.0.0.2:8443", /names this machine/],
      ["https://[::1]:8402", /names this machine/],
      ["https://[::]", /names this machine/],
      ["https://[::ffff:127.0.0.1]", /names this machine/],
    ])("refuses %s", (url, reason) => {
      expect(() => loadConfig({ ...mainnet, PUBLIC_URL: url })).toThrow(
        new RegExp(`PUBLIC_URL: .*${reason.source}`),
      );
    });

    it("takes a public https origin, and a local one only with ALLOW_LOCAL_PUBLIC_URL=1", () => {
      expect(loadConfig({ ...mainnet, PUBLIC_URL: "https://presend.example.com/" }).publicUrl).toBe(
        "https://presend.example.com",
      );
      const local = { ...mainnet, PUBLIC_URL: "http://127.0.0.1:8080" };
      expect(() => loadConfig(local)).toThrow(/PUBLIC_URL: /);
      expect(loadConfig({ ...local, ALLOW_LOCAL_PUBLIC_URL: "1" }).publicUrl).toBe(
        "http://127.0.0.1:8080",
      );
    });

    it("stays optional on the local network and the testnet", () => {
      expect(loadConfig({ HOST: "0.0.0.0" }).publicUrl).toBeUndefined();
      expect(
        loadConfig({
          PRESEND_NETWORK: "testnet",
          PAY_TO: mainnet.PAY_TO,
          ATTESTATION_KEY_FILE: mainnet.ATTESTATION_KEY_FILE,
          PUBLIC_URL: "http://127.0.0.1:8402",
        }).publicUrl,
      ).toBe("http://127.0.0.1:8402");
    });
  });

  it("takes a PAY_TO whose EIP-55 form has letters of one case only (or none), as it is", () => {
    // No letters at all: its EIP-55 form is itself, though a checker calls it "no checksum".
    const digitsOnly = "0x1234567890123456789012345678901234567890";
    expect(loadConfig({ PAY_TO: digitsOnly }).payTo).toBe(digitsOnly);
  });

  it("takes a hosted facilitator with its provider's key names instead of FACILITATOR_URL on mainnet", () => {
    const config = loadConfig({
      PRESEND_NETWORK: "mainnet",
      FACILITATOR_PROVIDER: "cdp",
      CDP_API_KEY_ID: "organizations/o/apiKeys/k",
      CDP_API_KEY_SECRET: "secret",
      PUBLIC_URL: "https://presend.example.com",
      PAY_TO: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    });
    expect(config.facilitatorUrl).toBeUndefined();
    expect(config.facilitatorAuth).toEqual({
      type: "cdp",
      apiKeyId: "organizations/o/apiKeys/k",
      apiKeySecret: "secret",
    });
    expect(loadConfig({}).facilitatorAuth).toEqual({ type: "none" });
  });

  it("sends FACILITATOR_AUTH_TOKEN to FACILITATOR_URL as a Bearer token", () => {
    const token = "fleet-secret-0123456789abcdef0123456789";
    const config = loadConfig({
      FACILITATOR_URL: "https://f.example",
      FACILITATOR_AUTH_TOKEN: token,
    });
    expect(config.facilitatorAuth).toEqual({ type: "bearer", token });
  });

  it("limits rates by default on mainnet only, with the budgets RATE_LIMIT_* set", () => {
    const mainnet = {
      PRESEND_NETWORK: "mainnet",
      FACILITATOR_URL: "https://f.example",
      PUBLIC_URL: "https://presend.example.com",
      PAY_TO: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    };
    expect(loadConfig(mainnet).rateLimit).toEqual({ windowMs: 60_000, free: 120, challenges: 60 });
    expect(loadConfig({ ...mainnet, RATE_LIMITS: "off" }).rateLimit).toBeNull();
    expect(loadConfig({}).rateLimit).toBeNull();
    expect(
      loadConfig({
        RATE_LIMITS: "on",
        RATE_LIMIT_WINDOW_MS: "1000",
        RATE_LIMIT_FREE: "5",
        RATE_LIMIT_CHALLENGES: "2",
      }).rateLimit,
    ).toEqual({ windowMs: 1_000, free: 5, challenges: 2 });
  });

  describe("channels", () => {
    const mainnet = {
      PRESEND_NETWORK: "mainnet",
      FACILITATOR_URL: "https://f.example",
      PUBLIC_URL: "https://presend.example.com",
      PAY_TO: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    };
    const key = `0x${"ab".repeat(32)}`;

    it("are on by default, kept in SQLite, or in PostgreSQL with DATABASE_URL", () => {
      expect(loadConfig({})).toMatchObject({ channels: null, channelStore: "sqlite" });
      expect(loadConfig(mainnet)).toMatchObject({ channels: null, channelStore: "sqlite" });
      const fleet = loadConfig({
        ...mainnet,
        DATABASE_URL: "postgres://db.example/presend",
        RECEIVER_AUTHORIZER_KEY: key,
      });
      expect(fleet).toMatchObject({ channelStore: "postgres", receiverAuthorizerKey: key });
      expect(loadConfig({ CHANNELS: "off" }).channels).toBe("off");
    });

    it.each([
      [{ CHANNELS: "maybe" }, "CHANNELS"],
      [{ CHANNEL_STORE: "redis" }, "CHANNEL_STORE"],
      [{ CHANNEL_STORE: "postgres" }, "CHANNEL_STORE"],
      // Replicas sharing the channels must sign with one key: none may make up its own.
      [{ ...mainnet, DATABASE_URL: "postgres://db.example/presend" }, "RECEIVER_AUTHORIZER_KEY"],
      [
        { ...mainnet, CHANNEL_STORE: "redis", REDIS_URL: "redis://cache.example" },
        "RECEIVER_AUTHORIZER_KEY",
      ],
    ])("refuse the half-configured %j, naming %s", (env, field) => {
      expect(() => loadConfig(env)).toThrow(new RegExp(`${field}: `));
    });

    it("need nothing of a server that turned them off", () => {
      const config = loadConfig({
        ...mainnet,
        DATABASE_URL: "postgres://db.example/presend",
        CHANNELS: "off",
      });
      expect(config.channels).toBe("off");
    });
  });

  it("accepts PRESEND_NETWORK=testnet without a facilitator (the public testnet one is the default)", () => {
    const config = loadConfig({
      PRESEND_NETWORK: "testnet",
      PAY_TO: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      ATTESTATION_KEY_FILE: "/etc/presend/attestation.json",
    });
    expect(config.network).toBe("testnet");
  });

  it("reads a JSON config file, with the environment taking precedence", () => {
    const file = join(mkdtempSync(join(tmpdir(), "presend-config-")), "config.json");
    writeFileSync(file, JSON.stringify({ PORT: 9000, RPC_URLS_ARBITRUM: ["https://arb.example"] }));
    const config = loadConfig({ PRESEND_CONFIG: file, PORT: "9001" });
    expect(config.port).toBe(9001);
    expect(config.rpcUrls.arbitrum).toEqual(["https://arb.example"]);
  });

  it("refuses a config file naming a setting presend does not read, with the one it is nearest to", () => {
    const file = join(mkdtempSync(join(tmpdir(), "presend-config-")), "config.json");
    writeFileSync(file, JSON.stringify({ PORT: 9000, CHANELS: "off", colour: "blue" }));
    expect(() => loadConfig({ PRESEND_CONFIG: file })).toThrow(
      `PRESEND_CONFIG: ${file} names settings presend does not read: CHANELS (did you mean CHANNELS?), colour.`,
    );
  });

  it("names PRESEND_CONFIG when the file is unreadable", () => {
    expect(() => loadConfig({ PRESEND_CONFIG: "/nonexistent/presend.json" })).toThrow(
      /PRESEND_CONFIG: /,
    );
  });

  // The file holds keys and secrets: JSON.parse's message quotes the text around the fault.
  it.each([
    [
      "a secret not in quotes",
      '{"CDP_API_KEY_SECRET": supersecretvalue0123456789}',
      /: not valid JSON$/,
    ],
    ["an .env file", "FACILITATOR_PRIVATE_KEY=0xsupersecretvalue0123456789\n", /: not valid JSON$/],
    [
      "a trailing comma",
      '{\n  "CDP_API_KEY_SECRET": "supersecretvalue0123456789",\n}',
      /: not valid JSON at line 3, column 1$/,
    ],
    ["a list", '["supersecretvalue0123456789"]', /\.env file is not read here\)$/],
  ])("names PRESEND_CONFIG and where it breaks, never its text, for %s", (_, text, where) => {
    const file = join(mkdtempSync(join(tmpdir(), "presend-config-")), "config.json");
    writeFileSync(file, text);
    let message = "";
    try {
      loadConfig({ PRESEND_CONFIG: file });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain(`PRESEND_CONFIG: ${file} is not a JSON object of settings`);
    expect(message).toMatch(where);
    expect(message).not.toMatch(/supersecr|SECRET|FACILITATOR_PRIVATE/);
  });

  it("reads history endpoints and windows per chain, and the address list files", () => {
    const config = loadConfig({
      HISTORY_RPC_URLS_BASE: "https://archive.example/base",
      HISTORY_WINDOW_BLOCKS_ETHEREUM: "50000",
      ADDRESS_LISTS: "/etc/presend/scams.jsonl, /etc/presend/exchanges.jsonl",
    });
    expect(config.historyRpcUrls).toEqual({ base: ["https://archive.example/base"] });
    expect(config.historyWindowBlocks).toEqual({ ethereum: 50000 });
    expect(config.addressLists).toEqual([
      "/etc/presend/scams.jsonl",
      "/etc/presend/exchanges.jsonl",
    ]);
    expect(loadConfig({}).addressLists).toEqual([]);
    expect(loadConfig({}).addressListsMaxMiB).toBe(256);
    expect(loadConfig({ ADDRESS_LISTS_MAX_MB: "1024" }).addressListsMaxMiB).toBe(1024);
    expect(() => loadConfig({ ADDRESS_LISTS_MAX_MB: "0" })).toThrow("ADDRESS_LISTS_MAX_MB");
  });
});
