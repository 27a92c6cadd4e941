import { connect } from "node:net";

/**
 * Sends raw bytes to a loopback server and reads everything it writes until it closes the
 * connection: for requests no HTTP client would send (no Host, broken framing, odd methods).
 * The sending side is shut once the bytes are out, unless `halfClose` is false: Node takes a
 * half-closed connection for a client that left, and does not answer requests still running
 * (pipelined ones behind a quick answer), so those are sent with the connection left open.
 * @example const answer = await rawExchange(server.port, "GET /ok HTTP/1.1\r\n\r\n");
 */
export function rawExchange(
  port: number,
  bytes: string,
  options: { halfClose?: boolean } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () =>
      options.halfClose === false ? socket.write(bytes) : socket.end(bytes),
    );
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}
