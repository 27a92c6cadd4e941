import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/loadConfig";
import { baseUnreadable, startFacilitatorService } from "./startFacilitatorService";

// Settings only: each case is refused before anything starts (no chain, no port, no journal).
const settings = {
  FACILITATOR_PRIVATE_KEY: `0x${"11".repeat(32)}`,
  RPC_URLS_BASE: "http://127.0.0.1:9",
  PORT: "0",
  FACILITATOR_JOURNAL_FILE: join(tmpdir(), "presend-facilitator-settings-journal.json"),
};

describe("startFacilitatorService", () => {
  // Without the fleet's secret anyone could have presend pay the gas of their settlements: an
  // unset, empty or guessable token is a setting error, never a service that takes anyone.
  it.each([
    ["unset", {}],
    ["empty", { FACILITATOR_AUTH_TOKEN: "" }],
    ["shorter than 32 characters", { FACILITATOR_AUTH_TOKEN: "x".repeat(31) }],
  ])("refuses to start with FACILITATOR_AUTH_TOKEN %s", async (_, token) => {
    const started = startFacilitatorService({ ...settings, ...token });
    await expect(started).rejects.toBeInstanceOf(ConfigError);
    await expect(started).rejects.toThrow(/FACILITATOR_AUTH_TOKEN/);
  });

  it.each(["FACILITATOR_AUTH_TOKEN", "FACILITATOR_PRIVATE_KEY", "RPC_URLS_BASE"])(
    "says %s is required when it is not set",
    async (name) => {
      const token = { FACILITATOR_AUTH_TOKEN: "t".repeat(32) };
      const env: Record<string, string | undefined> = { ...settings, ...token, [name]: undefined };
      await expect(startFacilitatorService(env)).rejects.toThrow(`${name}: is required`);
    },
  );

  it("names PORT when the port is taken, before it starts anything", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const { port } = taken.address() as { port: number };
    try {
      const started = startFacilitatorService({
        ...settings,
        FACILITATOR_AUTH_TOKEN: "t".repeat(32),
        PORT: String(port),
      });
      await expect(started).rejects.toBeInstanceOf(ConfigError);
      await expect(started).rejects.toThrow(
        `PORT: port ${port} (the facilitator service, set by PORT)`,
      );
    } finally {
      taken.close();
    }
  });
});

describe("startFacilitatorService's /readyz", () => {
  // The replicas' probe of the service is /supported, which needs no chain: without this the
  // service looked healthy (compose's healthcheck, the replicas' /readyz) while every
  // verification failed.
  it("is 503 while no RPC_URLS_BASE endpoint answers, naming the setting and not its URL", async () => {
    const service = await startFacilitatorService({
      ...settings,
      RPC_URLS_BASE: "http://127.0.0.1:9/v2/provider-key-0123, http://127.0.0.1:9/other-key",
      FACILITATOR_AUTH_TOKEN: "t".repeat(32),
      LOG_LEVEL: "silent",
    });
    try {
      const answer = await fetch(`${service.url}/readyz`);
      expect(answer.status).toBe(503);
      const text = await answer.text();
      expect(JSON.parse(text)).toEqual({ error: { code: "not_ready", message: baseUnreadable } });
      expect(text).toContain("RPC_URLS_BASE");
      expect(text).not.toMatch(/127\.0\.0\.1|provider-key|other-key/);
    } finally {
      await service.stop();
    }
  });
});
