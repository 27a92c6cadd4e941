import { once } from "node:events";
import { connect } from "node:net";
import { type Context, Hono } from "hono";
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

  it("waits for a large answer's last byte to reach a slow reader, not only for the app to hand it over", async () => {
    const size = 32 * 1024 * 1024;
    const app = new Hono();
    // Handed to Node in one piece at once; the socket takes far longer to carry it.
    app.get("/large", (c) => c.body(new Uint8Array(size)));
    const server = await serveWithDrain(app, { port: 0 });
    const socket = connect(server.port, "127.0.0.1");
    let received = 0;
    const ended = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.write(`GET /large HTTP/1.1\r\nHost: x\r\n\r\n`);
    await once(socket, "data");
    // A reader that stops for a while: most of the answer is still to be written.
    socket.pause();
    const drained = server.drain(10_000);
    await sleep(300);
    socket.resume();
    expect(await drained).toEqual({ drained: true, cut: 0 });
    await ended;
    expect(received).toBeGreaterThan(size);
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

  it.each([
    // Written before any listener after node-server's own could set a header: /validate's way.
    ["answered at once", (c: Context) => c.text("ok")],
    [
      "answered after an await",
      async (c: Context) => {
        await Promise.resolve();
        return c.text("ok");
      },
    ],
  ])(
    "answers a request that arrives on an open connection while draining with Connection: close (%s)",
    async (_name, fast) => {
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const app = new Hono();
      app.get("/held", async (c) => {
        await held;
        return c.text("held");
      });
      app.get("/fast", fast);
      const server = await serveWithDrain(app, { port: 0 });
      // A raw socket, so the second request goes down the connection the first still holds open.
      const socket = connect(server.port, "127.0.0.1");
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        received += chunk;
      });
      const closed = once(socket, "close");
      socket.write("GET /held HTTP/1.1\r\nHost: localhost\r\n\r\n");
      await untilInFlight(server);
      const drained = server.drain(5_000);
      socket.write("GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n");
      while (server.inFlight() < 2) await sleep(5);
      release();
      expect(await drained).toEqual({ drained: true, cut: 0 });
      await closed;
      const answers = received.split("HTTP/1.1 ").slice(1);
      expect(answers).toHaveLength(2);
      expect(answers[1]).toMatch(/^200 /);
      expect(answers[1]).toMatch(/\r\nconnection: close\r\n/i);
    },
  );

  it("answers a request Node's parser refuses as the API answers errors (JSON, CORS)", async () => {
    const server = await serveWithDrain(slowApp(), { port: 0 });
    try {
      const socket = connect(server.port, "127.0.0.1");
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        received += chunk;
      });
      const closed = once(socket, "close");
      socket.end(`GET /fast HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
      await closed;
      expect(received).toMatch(/^HTTP\/1.1 431 /);
      expect(received).toMatch(/\r\naccess-control-allow-origin: \*\r\n/i);
      expect(received).toContain('"code":"headers_too_large"');
    } finally {
      await server.drain(1_000);
    }
  });
});
