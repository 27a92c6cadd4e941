import { readFileSync } from "node:fs";
import { deserialize } from "node:v8";
import type { World } from "@presend/devnet";
import { z } from "zod";
import { listen } from "../../http/listen";
import { startPaidStack } from "./startPaidStack";

// The child process startServerProcess runs: the paid API with channels on a world another
// process owns, listening on a free port, until it is killed (or stopped with SIGTERM: then it
// drains as a server does, channels flushed, and exits). Its URL is its one line of its own.
const env = z
  .object({
    PRESEND_TEST_WORLD_FILE: z.string().min(1),
    PRESEND_TEST_DATA_DIR: z.string().min(1),
    PRESEND_TEST_RECEIVER_AUTHORIZER_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
    PRESEND_TEST_PAYMENT_RPC_URL: z.string().url().optional(),
    PRESEND_TEST_SETTINGS: z.string().optional(),
  })
  .parse(process.env);
const shared = deserialize(readFileSync(env.PRESEND_TEST_WORLD_FILE)) as Omit<World, "stop">;
const stack = await startPaidStack({
  // The world belongs to the test run: this process never stops it.
  world: { ...shared, stop: async () => {} },
  dataDir: env.PRESEND_TEST_DATA_DIR,
  receiverAuthorizerKey: env.PRESEND_TEST_RECEIVER_AUTHORIZER_KEY as `0x${string}`,
  ...(env.PRESEND_TEST_PAYMENT_RPC_URL && { paymentRpcUrl: env.PRESEND_TEST_PAYMENT_RPC_URL }),
  ...(env.PRESEND_TEST_SETTINGS && {
    env: z.record(z.string(), z.string()).parse(JSON.parse(env.PRESEND_TEST_SETTINGS)),
  }),
});
const server = await listen(stack.app, { port: 0 });
process.once("SIGTERM", async () => {
  await server.close();
  await stack.stop();
  process.exit(0);
});
process.stdout.write(`listening ${server.url}\n`);
