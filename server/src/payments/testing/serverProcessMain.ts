import { readFileSync } from "node:fs";
import { deserialize } from "node:v8";
import type { World } from "@presend/devnet";
import { z } from "zod";
import { listen } from "../../http/listen";
import { startPaidStack } from "./startPaidStack";

// The child process startServerProcess runs: the paid API with channels on a world another
// process owns, listening on a free port, until it is killed. Its URL is its one line of output.
const env = z
  .object({
    PRESEND_TEST_WORLD_FILE: z.string().min(1),
    PRESEND_TEST_DATA_DIR: z.string().min(1),
    PRESEND_TEST_RECEIVER_AUTHORIZER_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/),
  })
  .parse(process.env);
const shared = deserialize(readFileSync(env.PRESEND_TEST_WORLD_FILE)) as Omit<World, "stop">;
const stack = await startPaidStack({
  // The world belongs to the test run: this process never stops it.
  world: { ...shared, stop: async () => {} },
  dataDir: env.PRESEND_TEST_DATA_DIR,
  receiverAuthorizerKey: env.PRESEND_TEST_RECEIVER_AUTHORIZER_KEY as `0x${string}`,
});
const server = await listen(stack.app, { port: 0 });
process.stdout.write(`listening ${server.url}\n`);
