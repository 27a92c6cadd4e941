import { readdir, readFile } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { InputError } from "@presend/shared/errors/InputError";
import { z } from "zod";
import { stableJson } from "../stableJson";

// A recorded exchange. JSON-RPC exchanges also match on the call (method + params), since every
// call of one endpoint shares its URL.
const RecordingSchema = z.object({
  request: z.object({
    method: z.string(),
    url: z.url(),
    jsonrpc: z.object({ method: z.string(), params: z.array(z.unknown()) }).optional(),
  }),
  response: z
    .object({
      status: z.number().int(),
      headers: z.record(z.string(), z.string()).optional(),
      json: z.unknown().optional(),
      text: z.string().optional(),
    })
    .optional(),
  /** The connection is dropped without an answer, as a host that is down does. */
  network_error: z.literal(true).optional(),
});
type Recording = z.infer<typeof RecordingSchema>;

export type ReplayServer = {
  url: string;
  /** A fetch that sends every request to the replay server, carrying the original URL. */
  fetch: typeof fetch;
  /** Requests that matched no recording (method and URL), for diagnostics. */
  misses: string[];
  stop: () => Promise<void>;
};

const originalUrlHeader = "x-replay-url";

function keyOf(method: string, url: string, call?: { method: string; params: unknown[] }): string {
  // Canonical (sorted keys), so a recording matches whatever key order the caller serializes in.
  return stableJson([method.toUpperCase(), url, call ? [call.method, call.params] : null]);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Loads every `*.json` file under `dir` (recursively) as a list of recordings. */
async function loadRecordings(dir: string): Promise<Recording[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".json"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  const recordings: Recording[] = [];
  for (const file of files) {
    const parsed = z.array(RecordingSchema).safeParse(JSON.parse(await readFile(file, "utf8")));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(`${file}: ${issue?.path.join(".")}: ${issue?.message}`);
    }
    recordings.push(...parsed.data);
  }
  return recordings;
}

/**
 * Serves recorded HTTP exchanges from `dir` on a loopback port, so sources run their real HTTP code
 * against recorded answers.
 * @example const replay = await startReplayServer({ dir: "snapshots/fixtures/http" });
 */
export async function startReplayServer(options: { dir: string }): Promise<ReplayServer> {
  const recordings = new Map<string, Recording>();
  for (const recording of await loadRecordings(options.dir)) {
    const { method, url, jsonrpc } = recording.request;
    recordings.set(keyOf(method, new URL(url).href, jsonrpc), recording);
  }
  const misses: string[] = [];
  const server = createServer(async (request, response) => {
    const original = request.headers[originalUrlHeader];
    const method = request.method ?? "GET";
    const body = await readBody(request);
    if (typeof original !== "string") {
      response.writeHead(400).end("missing x-replay-url");
      return;
    }
    let call: { method: string; params: unknown[]; id: unknown } | undefined;
    if (body) {
      const rpc = z
        .object({ method: z.string(), params: z.array(z.unknown()).default([]), id: z.unknown() })
        .safeParse(JSON.parse(body.startsWith("{") ? body : "null"));
      if (rpc.success) call = rpc.data;
    }
    const recording =
      recordings.get(keyOf(method, original, call)) ?? recordings.get(keyOf(method, original));
    if (!recording) {
      misses.push(`${method} ${original}${call ? ` ${call.method}` : ""}`);
      if (call) {
        const error = { code: -32601, message: `no recording for ${call.method}` };
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id: call.id, error }));
      } else {
        response.writeHead(404, { "content-type": "text/plain" }).end("no recording");
      }
      return;
    }
    if (recording.network_error || !recording.response) {
      request.socket.destroy();
      return;
    }
    const { status, headers = {}, json, text } = recording.response;
    // A JSON-RPC answer must echo the caller's id, which differs from the recorded one.
    const payload =
      json !== undefined && call && typeof json === "object" && json !== null
        ? { ...json, id: call.id }
        : json;
    const content = payload !== undefined ? JSON.stringify(payload) : (text ?? "");
    const contentType = payload !== undefined ? "application/json" : "text/plain";
    response.writeHead(status, { "content-type": contentType, ...headers });
    response.end(content);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  const replayFetch: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    const headers = new Headers(request.headers);
    headers.set(originalUrlHeader, new URL(request.url).href);
    return fetch(`${url}/`, {
      method: request.method,
      headers,
      body: request.method === "GET" || request.method === "HEAD" ? undefined : request.body,
      signal: init?.signal ?? null,
      // Required by Node's fetch for a streamed request body.
      ...({ duplex: "half" } as object),
    });
  };
  return {
    url,
    fetch: replayFetch,
    misses,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
