import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SharedPaymentWorld } from "@presend/devnet/testing";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../../facilitatorService/startFacilitatorService";
import { freePort } from "../../http/freePort";

/**
 * A `presend facilitator` on one port of its own, settling on the lane's Base chain, that a test
 * can stop and start again where a replica reaches it (its journal kept across restarts), with the
 * replica settings that reach it.
 * @example const facilitator = await restartableFacilitator(world, "a-token-of-32-characters-or-more"); await facilitator.stop(); await facilitator.start();
 */
export async function restartableFacilitator(world: SharedPaymentWorld["world"], token: string) {
  const port = await freePort();
  const journal = join(mkdtempSync(join(tmpdir(), "presend-facilitator-")), "journal.json");
  let running: FacilitatorService | null = null;
  return {
    /** What a replica sets to pay through it. */
    env: { FACILITATOR_URL: `http://127.0.0.1:${port}`, FACILITATOR_AUTH_TOKEN: token },
    async start(): Promise<void> {
      running = await startFacilitatorService({
        PORT: String(port),
        RPC_URLS_BASE: world.chains.base.rpcUrl,
        FACILITATOR_PRIVATE_KEY: world.accounts.facilitator.privateKey,
        FACILITATOR_AUTH_TOKEN: token,
        FACILITATOR_JOURNAL_FILE: journal,
        LOG_LEVEL: "silent",
      });
    },
    async stop(): Promise<void> {
      await running?.stop();
      running = null;
    },
  };
}
