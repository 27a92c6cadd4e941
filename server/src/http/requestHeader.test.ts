import { request } from "node:http";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { listen } from "./listen";
import { requestHeader } from "./requestHeader";

function echoApp() {
  const app = new Hono();
  app.get("/", (c) =>
    c.json({
      id: requestHeader(c, "X-Request-Id") ?? null,
      forwarded: requestHeader(c, "x-forwarded-for") ?? null,
      absent: requestHeader(c, "x-absent") ?? null,
    }),
  );
  return app;
}

// Node's client, so a header can be sent twice (an array value is one line per value).
function get(url: string, headers: Record<string, string | string[]>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const sent = request(url);
    for (const [name, value] of Object.entries(headers)) sent.setHeader(name, value);
    sent.on("response", async (answer) => {
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    });
    sent.on("error", reject);
    sent.end();
  });
}

describe("requestHeader", () => {
  it("reads the same values from node-server's parsed headers as from the Request", async () => {
    const headers = { "X-Request-Id": "nginx-1", "X-Forwarded-For": ["10.0.0.1", "10.0.0.2"] };
    const expected = { id: "nginx-1", forwarded: "10.0.0.1, 10.0.0.2", absent: null };
    const server = await listen(echoApp(), { port: 0 });
    try {
      expect(await get(server.url, headers)).toEqual(expected);
    } finally {
      await server.close();
    }
    const viaRequest = await echoApp().request("/", {
      headers: [
        ["X-Request-Id", "nginx-1"],
        ["X-Forwarded-For", "10.0.0.1"],
        ["X-Forwarded-For", "10.0.0.2"],
      ],
    });
    expect(await viaRequest.json()).toEqual(expected);
  });
});
