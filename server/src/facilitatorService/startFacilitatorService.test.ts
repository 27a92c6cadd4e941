import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/loadConfig";
import { startFacilitatorService } from "./startFacilitatorService";

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
});
