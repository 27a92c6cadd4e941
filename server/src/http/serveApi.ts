import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener, RequestError } from "@hono/node-server";
import type { ErrorBody } from "@presend/shared/api/errors";
import { corsResponseHeaders } from "./apiCors";

type FetchCallback = Parameters<typeof getRequestListener>[0];

/**
 * Serves a fetch app over Node's HTTP server as @hono/node-server's `serve` does, with one
 * difference: a request Node parsed but whose URL cannot be built (no `Host` on HTTP/1.1, a bad
 * `Host`, the `*` target of `OPTIONS *`) gets the API's JSON 400 `malformed_request`, as a page can
 * read it, instead of node-server's empty 400 (`serve` passes no error handler through).
 * @example const server = serveApi(app.fetch, { port: 8402, hostname: "127.0.0.1" }, (info) => log(info.port));
 */
export function serveApi(
  fetch: FetchCallback,
  options: { port: number; hostname: string },
  onListening: (info: AddressInfo) => void,
): Server {
  const listener = getRequestListener(fetch, {
    hostname: options.hostname,
    errorHandler: (error) => (error instanceof RequestError ? malformed() : internal()),
  });
  // Node's own check answers an HTTP/1.1 request without Host with a bare 400 before any listener
  // runs; it is made here instead, with the same status and the API's body.
  const server = createServer({ requireHostHeader: false }, (request, response) => {
    if (request.httpVersion === "1.1" && request.headers.host === undefined) {
      const refusal = malformed();
      response.writeHead(refusal.status, Object.fromEntries(refusal.headers));
      void refusal.text().then((body) => response.end(body));
      return;
    }
    void listener(request, response);
  });
  server.listen(options.port, options.hostname, () => {
    onListening(server.address() as AddressInfo);
  });
  return server;
}

function malformed(): Response {
  return answer(400, {
    error: {
      code: "malformed_request",
      message:
        "The request's target or Host header cannot be read as a URL: send an origin-form path (/check) and a Host header.",
    },
  });
}

// The app answers its own failures (app.onError); this is only a throw before the app ran, so
// no route was reached and nothing about a charge can be said either way.
function internal(): Response {
  return answer(500, {
    error: { code: "internal_error", message: "Internal error; try again shortly." },
  });
}

function answer(status: number, body: ErrorBody): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json",
      // As Node's own parser refusals (answerClientErrors): the request's bytes framed nothing
      // this server can trust, so the connection is not reused.
      connection: "close",
      ...corsResponseHeaders,
    },
  });
}
