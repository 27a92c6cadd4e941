import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { ErrorBody, ErrorCode } from "@presend/shared/api/errors";
import { corsResponseHeaders } from "./apiCors";

type Refusal = { status: number; reason: string; code: ErrorCode; message: string };

const headersTooLarge: Refusal = {
  status: 431,
  reason: "Request Header Fields Too Large",
  code: "headers_too_large",
  message: "The request's headers are over 16 KB in all; send smaller headers.",
};
const timedOut: Refusal = {
  status: 408,
  reason: "Request Timeout",
  code: "request_timeout",
  message: "The request did not arrive in time; send it again.",
};
const malformed: Refusal = {
  status: 400,
  reason: "Bad Request",
  code: "malformed_request",
  message: "The request is not HTTP this server can read (method, request line or framing).",
};

// CONNECT asks for a tunnel: this server is no proxy, and no route of it has the method.
const connectRefused: Refusal = {
  status: 404,
  reason: "Not Found",
  code: "not_found",
  message: "No route for CONNECT: this server is not a proxy.",
};

// An expectation other than 100-continue (RFC 9110 10.1.1): Node would answer a bare 417.
const expectationRefused: Refusal = {
  status: 417,
  reason: "Expectation Failed",
  code: "expectation_failed",
  message:
    "The Expect header asks for something this server does not do; send no Expect header, or 100-continue.",
};

/** Node's parser errors, as the answer each one gets (any other: malformed). */
const refusals: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: timedOut,
};

/**
 * Answers the requests Node's HTTP parser refuses before any route sees them (headers over
 * Node's 16 KB, a method or request line it cannot read, broken framing, a CONNECT, an Expect
 * other than 100-continue) the way every other error is answered: a JSON body with a stable
 * code, readable by a browser page (CORS), instead of Node's bare status line. The connection is
 * closed, as Node would: its bytes cannot be trusted to frame another request. Requests that
 * arrived whole on the same connection before the broken one (pipelined) are answered first, in
 * order: the refusal written at once would take the first one's place, and a client reads
 * answers in the order it sent its requests (a paid check would read "malformed, not charged").
 * @example answerClientErrors(server);
 */
export function answerClientErrors(server: Server): void {
  // Per connection, the requests not answered to their last byte yet, and the refusal waiting
  // for the whole ones among them.
  const unanswered = new WeakMap<Duplex, Set<IncomingMessage>>();
  const refusalAfter = new WeakMap<Duplex, Refusal>();
  const track = (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    const requests = unanswered.get(socket) ?? new Set<IncomingMessage>();
    unanswered.set(socket, requests);
    requests.add(request);
    response.once("close", () => {
      requests.delete(request);
      const refusal = refusalAfter.get(socket);
      if (refusal === undefined || whole(requests).length > 0) return;
      refusalAfter.delete(socket);
      if (socket.writable) refuse(socket, refusal);
      else socket.destroy();
    });
  };
  // Ahead of node-server's listener, which may answer (and close) before a later one runs.
  server.prependListener("request", track);
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A refusal already waits for the answers ahead of it: more broken bytes change nothing.
    if (refusalAfter.has(socket) && error.code !== "ECONNRESET") return;
    // A reset peer hears nothing.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = refusals[error.code ?? ""] ?? malformed;
    // The broken bytes follow requests that came whole: those are answered first, then this.
    if (whole(unanswered.get(socket)).length > 0) {
      refusalAfter.set(socket, refusal);
      return;
    }
    // An answer already under way (to a request whose own body broke) is not interrupted.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (answering?.headersSent) {
      socket.destroy();
      return;
    }
    refuse(socket, refusal);
  });
  // Without a listener Node drops a CONNECT's connection with no answer at all.
  server.on("connect", (_request, socket: Duplex) => {
    if (socket.writable) refuse(socket, connectRefused);
    else socket.destroy();
  });
  // Without a listener Node answers an unknown expectation with a bare 417 and keeps the
  // connection; with one, the request is not handed to the app.
  server.on("checkExpectation", (request: IncomingMessage, response: ServerResponse) => {
    track(request, response);
    answer(response, expectationRefused);
  });
}

/** The requests among `requests` whose bytes all arrived. */
function whole(requests: Set<IncomingMessage> | undefined): IncomingMessage[] {
  return [...(requests ?? [])].filter((request) => request.complete);
}

function body(refusal: Refusal): string {
  const error: ErrorBody = { error: { code: refusal.code, message: refusal.message } };
  return JSON.stringify(error);
}

/** A refusal through Node's own response, in its place among the connection's answers. */
function answer(response: ServerResponse, refusal: Refusal): void {
  const json = body(refusal);
  response.writeHead(refusal.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(json),
    connection: "close",
    ...corsResponseHeaders,
  });
  response.end(json);
}

function refuse(socket: Duplex, refusal: Refusal): void {
  const json = body(refusal);
  const head = [
    `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Connection: close",
    ...Object.entries(corsResponseHeaders).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${json}`);
}
