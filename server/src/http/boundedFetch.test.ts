import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnswerTooLarge, boundedFetch } from "./boundedFetch";

describe("boundedFetch", () => {
  let server: Server;
  let url: string;
  // Whether the last streamed answer's connection was closed (the reader let go of it).
  let streamedClosed = false;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const sized = new URL(request.url ?? "/", "http://x");
      if (sized.pathname === "/sized") {
        const bytes = Number(sized.searchParams.get("bytes"));
        const declared = sized.searchParams.get("declared") === "true";
        response.writeHead(200, declared ? { "content-length": String(bytes) } : {});
        response.end("x".repeat(bytes));
        return;
      }
      if (request.url === "/declared") {
        response.writeHead(200, { "content-length": "5000000" });
        response.end();
        return;
      }
      if (request.url === "/streamed") {
        streamedClosed = false;
        response.on("close", () => {
          streamedClosed = true;
        });
        response.writeHead(200, { "content-type": "application/json" });
        const chunk = "x".repeat(64 * 1024);
        // Far more than the limit, without a Content-Length.
        let sent = 0;
        const write = () => {
          while (sent < 200) {
            sent++;
            if (!response.write(chunk)) return void response.once("drain", write);
          }
          response.end();
        };
        response.on("error", () => {});
        write();
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end('{"jsonrpc":"2.0","id":1,"result":"0x1"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("passes a small answer through unchanged", async () => {
    const response = await boundedFetch(1000)(`${url}/small`);
    expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x1" });
  });

  it("refuses a declared length over the limit before reading", async () => {
    await expect(boundedFetch(1000)(`${url}/declared`)).rejects.toBeInstanceOf(AnswerTooLarge);
  });

  it("stops reading a streamed answer at the limit: the bytes it read are the limit and one chunk, not the 12.8 MB sent, and it lets go of the connection", async () => {
    let bytesRead = 0;
    // Counts what boundedFetch pulls from the body, chunk by chunk, as it pulls it.
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      const source = response.body?.getReader();
      const body = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const next = await source?.read();
            if (next === undefined || next.done) return controller.close();
            bytesRead += next.value.byteLength;
            controller.enqueue(next.value);
          },
          cancel: (reason) => source?.cancel(reason),
        },
        { highWaterMark: 0 },
      );
      return new Response(body, { status: response.status, headers: response.headers });
    };
    const limit = 100_000;
    await expect(boundedFetch(limit, counting)(`${url}/streamed`)).rejects.toBeInstanceOf(
      AnswerTooLarge,
    );
    expect(bytesRead).toBeGreaterThan(limit);
    expect(bytesRead).toBeLessThanOrEqual(limit + 64 * 1024);
    // And lets go of the connection: the server is not left holding the rest of the answer.
    await expect.poll(() => streamedClosed, { timeout: 5_000 }).toBe(true);
  });

  it.each([
    ["with a declared length", true],
    ["streamed", false],
  ])(
    "lets an answer of exactly the limit through and refuses one byte more, %s",
    async (_name, declared) => {
      const at = (bytes: number) =>
        boundedFetch(1000)(`${url}/sized?bytes=${bytes}&declared=${declared}`);
      expect((await (await at(1000)).arrayBuffer()).byteLength).toBe(1000);
      await expect(at(1001)).rejects.toBeInstanceOf(AnswerTooLarge);
    },
  );
});
