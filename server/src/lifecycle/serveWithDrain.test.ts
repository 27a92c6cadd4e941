import { Hono } from "hono";
import { stream } from "hono/streaming";
import { describe, expect, it } from "vitest";
import { serveWithDrain } from "./serveWithDrain";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the server has a request in flight (a loaded machine may take a while). */
async function untilInFlight(server: { inFlight: () => number }) {
  while (server.inFlight() === 0) await sleep(5);
}

function slowApp() {
  const app = new Hono();
  // A paid request: the answer takes a while, and its body leaves in two parts.
  app.get("/slow", (c) =>
    stream(c, async (out) => {
      await sleep(300);
      await out.write('{"report":');
      await sleep(200);
      await out.write('"complete"}');
    }),
  );
  app.get("/fast", (c) => c.text("ok"));
  return app;
}

describe("serveWithDrain", () => {
  it("lets a request in flight finish to its last byte, refuses new connections, then resolves", async () => {
    const server = await serveWithDrain(slowApp(), { port: 0 });
    const inFlight = fetch(`${server.url}/slow`).then(async (response) => ({
      status: response.status,
      connection: response.headers.get("connection"),
      body: await response.text(),
    }));
    await untilInFlight(server);
    expect(server.inFlight()).toBe(1);
    const drained = server.drain(5_000);
    expect(server.draining()).toBe(true);
    await sleep(50);
    await expect(fetch(`${server.url}/fast`)).rejects.toThrow();
    expect(await inFlight).toMatchObject({ status: 200, body: '{"report":"complete"}' });
    expect(await drained).toEqual({ drained: true, cut: 0 });
  });

  it("cuts what is still running when the deadline passes", async () => {
    const server = await serveWithDrain(slowApp(), { port: 0 });
    const inFlight = fetch(`${server.url}/slow`)
      .then((response) => response.text())
      .catch(() => "cut");
    await untilInFlight(server);
    expect(await server.drain(100)).toEqual({ drained: false, cut: 1 });
    expect(await inFlight).toBe("cut");
  });
});
