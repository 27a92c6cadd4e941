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
  // Sockets whose refusal waits for the answers ahead of it.
  const refusing = new WeakSet<Duplex>();
  // Read from the socket when a request breaks, never tracked per request: the hottest route
  // (/validate) would pay a listener on every answer for what only a broken request needs.
  const refuseInTurn = (socket: Duplex, refusal: Refusal) => {
    const answering = answeringOn(socket);
    // Node answers a connection's requests one at a time, in order: the one on the socket now
    // came whole before the broken bytes, so the refusal waits for it, then for the next one.
    if (answering?.req?.complete && !answering.writableFinished) {
      answering.once("close", () => setImmediate(() => refuseInTurn(socket, refusal)));
      return;
    }
    refusing.delete(socket);
    if (!socket.writable) socket.destroy();
    // An answer already under way (to a request whose own body broke) is not interrupted.
    else if (answering?.headersSent) socket.destroy();
    else refuse(socket, refusal);
  };
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A refusal already waits for the answers ahead of it: more broken bytes change nothing.
    if (refusing.has(socket) && error.code !== "ECONNRESET") return;
    // A reset peer hears nothing.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    refusing.add(socket);
    refuseInTurn(socket, refusals[error.code ?? ""] ?? malformed);
  });
  // Without a listener Node drops a CONNECT's connection with no answer at all.
  server.on("connect", (_request, socket: Duplex) => {
    if (socket.writable) refuse(socket, connectRefused);
    else socket.destroy();
  });
  // Without a listener Node answers an unknown expectation with a bare 417 and keeps the
  // connection; with one, the request is not handed to the app.
  server.on("checkExpectation", (_request: IncomingMessage, response: ServerResponse) => {
    answer(response, expectationRefused);
  });
}

/** The answer Node is writing on this connection now (the first one not finished), if any. */
function answeringOn(socket: Duplex): ServerResponse | undefined {
  return (socket as { _httpMessage?: ServerResponse })._httpMessage ?? undefined;
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
