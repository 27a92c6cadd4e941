import type { Server } from "node:http";
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

/** Node's parser errors, as the answer each one gets (any other: malformed). */
const refusals: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: headersTooLarge,
  ERR_HTTP_REQUEST_TIMEOUT: timedOut,
};

/**
 * Answers the requests Node's HTTP parser refuses before any route sees them (headers over
 * Node's 16 KB, a method or request line it cannot read, broken framing, a CONNECT) the way every other
 * error is answered: a JSON body with a stable code, readable by a browser page (CORS), instead
 * of Node's bare status line. The connection is closed, as Node would: its bytes cannot be
 * trusted to frame another request.
 * @example answerClientErrors(server);
 */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset peer hears nothing; an answer already under way is not interrupted by another.
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) {
      socket.destroy();
      return;
    }
    refuse(socket, refusals[error.code ?? ""] ?? malformed);
  });
  // Without a listener Node drops a CONNECT's connection with no answer at all.
  server.on("connect", (_request, socket: Duplex) => {
    if (socket.writable) refuse(socket, connectRefused);
    else socket.destroy();
  });
}

function refuse(socket: Duplex, refusal: Refusal): void {
  const body: ErrorBody = { error: { code: refusal.code, message: refusal.message } };
  const json = JSON.stringify(body);
  const head = [
    `HTTP/1.1 ${refusal.status} ${refusal.reason}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(json)}`,
    "Connection: close",
    ...Object.entries(corsResponseHeaders).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${json}`);
}
