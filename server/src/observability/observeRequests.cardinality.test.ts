import { request as httpRequest } from "node:http";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { type DrainingServer, serveWithDrain } from "../lifecycle/serveWithDrain";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// What a server that runs for weeks is sent: every client its own addresses, ids, paths, user
// agents and methods. The composed API over Node's listener, as `npm start` serves it.
const { world } = sharedPaymentWorld();

// Every method Node's parser takes (http.METHODS) but CONNECT, which never reaches the app.
const methods = [
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "ACL",
  "BIND",
  "CHECKOUT",
  "COPY",
  "LINK",
  "LOCK",
  "M-SEARCH",
  "MERGE",
  "MKACTIVITY",
  "MKCALENDAR",
  "MKCOL",
  "MOVE",
  "NOTIFY",
  "PROPFIND",
  "PROPPATCH",
  "PURGE",
  "QUERY",
  "REBIND",
  "REPORT",
  "SEARCH",
  "SOURCE",
  "SUBSCRIBE",
  "UNBIND",
  "UNLINK",
  "UNLOCK",
  "UNSUBSCRIBE",
];

describe("/metrics does not grow with what clients send", () => {
  let stack: PaidStack;
  let server: DrainingServer;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    stack = await startPaidStack({ world, publicUrl: `http://127.0.0.1:${port}` });
    server = await serveWithDrain(stack.app, { port });
  });
  afterAll(async () => {
    await server?.drain(1_000);
    await stack?.stop();
  });

  const send = (method: string, path: string, index: number, body?: string) =>
    new Promise<number>((resolve) => {
      const headers: Record<string, string> = {
        "user-agent": `client-${index}`,
        "x-forwarded-for": `10.${index >> 8}.${index & 255}.7`,
        "x-request-id": `req-${index}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      };
      const request = httpRequest({ host: "127.0.0.1", port, method, path, headers }, (answer) => {
        answer.resume();
        answer.on("end", () => resolve(answer.statusCode ?? 0));
      });
      request.on("error", () => resolve(-1));
      request.end(body);
    });

  /** One client's requests: each path, address and id its own, with one method throughout. */
  const oneClient = (index: number, method: string) => {
    const address = toHex(index + 1, { size: 20 });
    const nonce = toHex(index + 1, { size: 32 });
    return Promise.all([
      send(method, `/validate?address=${address}`, index),
      send(method, `/receipts/${nonce}`, index),
      send(method, `/receipts/${address}/${nonce}`, index),
      send(method, `/no/such/${index}`, index),
      send(method, `/${address}`, index),
      send(method, `/check?${index}`, index, JSON.stringify({ address, chain: "base" })),
      send(method, "/deep", index, JSON.stringify({ address, from: address })),
    ]);
  };
  const series = async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    return text.split("\n").filter((line) => line.startsWith("presend_http_"));
  };

  it("keeps one series per method the API knows, route pattern and status, whatever the paths, ids and methods", async () => {
    // The API's own methods and one unusual one, each once.
    for (const [index, method] of [
      "GET",
      "HEAD",
      "POST",
      "OPTIONS",
      "PUT",
      "PATCH",
      "DELETE",
      "TRACE",
    ].entries()) {
      await oneClient(index, method);
    }
    // A scrape is a request too: its own series is there from the first one on.
    await series();
    const known = await series();
    // Then many clients, every one with new addresses, ids and paths, in every method Node takes.
    for (let index = 8; index < 8 + 6 * methods.length; index++) {
      await oneClient(index, methods[index % methods.length] as string);
    }
    const after = await series();
    expect(after.map((line) => line.replace(/ [\d.e+-]+$/, ""))).toEqual(
      known.map((line) => line.replace(/ [\d.e+-]+$/, "")),
    );
    const labels = after.join("\n");
    expect(labels).not.toMatch(/0x[0-9a-f]{8}|no\/such|client-|PROPFIND|M-SEARCH/i);
    expect(labels).toContain('method="other"');
  });
});
