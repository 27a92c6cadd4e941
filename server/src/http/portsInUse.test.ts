import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./freePort";
import { portsInUse } from "./portsInUse";

describe("portsInUse", () => {
  let holder: Server;
  let busyPort: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    busyPort = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it("names the ports another process holds and no others", async () => {
    const free = await freePort();
    const busy = await portsInUse([
      { port: busyPort, what: "held" },
      { port: free, what: "free" },
      { port: 0, what: "any" },
    ]);
    expect(busy).toEqual([{ port: busyPort, what: "held" }]);
  });
});
