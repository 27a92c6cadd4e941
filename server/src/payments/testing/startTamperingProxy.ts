import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from "@x402/core/http";
import type { PaymentRequired } from "@x402/core/types";

/** One request as the proxy saw it. */
export type ProxiedRequest = { method: string; path: string; headers: Headers; body: string };

/**
 * What a hostile or faulty middlebox does with one exchange: answer itself without forwarding
 * (`before`), rewrite the upstream answer, or drop the connection once the upstream answered.
 */
export type Tampering = {
  before?: (request: ProxiedRequest) => Response | undefined;
  after?: (request: ProxiedRequest, upstream: Response) => Promise<Response | "drop">;
};

export type TamperingProxy = {
  url: string;
  /** Replaces the tampering for the next requests (none: a faithful proxy). */
  set(tampering: Tampering | null): void;
  /** Requests carrying a payment that reached the upstream server. */
  paymentsForwarded(): number;
  /**
   * Holds every paid request's answer (the server has settled it) until `release`: `reached`
   * resolves when the first one is held, the moment a test interrupts the client.
   */
  holdPaidAnswers(): { reached: Promise<void>; release: () => void };
  close(): Promise<void>;
};

/**
 * An HTTP proxy in front of the real API for tests of what a client does when the network or
 * a middlebox lies: it forwards every request and lets a test rewrite or drop the answers.
 * @example const proxy = await startTamperingProxy(server.url); proxy.set({ after: ... });
 */
export async function startTamperingProxy(target: string): Promise<TamperingProxy> {
  let tampering: Tampering | null = null;
  let forwarded = 0;
  const server = createServer(async (req, res) => {
    const request = await readRequest(req);
    const own = tampering?.before?.(request);
    let answer: Response | "drop";
    if (own) {
      answer = own;
    } else {
      if (request.headers.has("payment-signature")) forwarded++;
      const upstream = await fetch(`${target}${request.path}`, {
        method: request.method,
        headers: request.headers,
        ...(request.method === "GET" || request.method === "HEAD" ? {} : { body: request.body }),
        redirect: "manual",
      });
      answer = tampering?.after ? await tampering.after(request, upstream) : upstream;
    }
    if (answer === "drop") {
      req.socket.destroy();
      return;
    }
    const body = Buffer.from(await answer.arrayBuffer());
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, key) => {
      // fetch decoded the body; the length is the proxy's own.
      if (key !== "content-length" && key !== "content-encoding" && key !== "transfer-encoding")
        headers[key] = value;
    });
    res.writeHead(answer.status, { ...headers, "content-length": String(body.length) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set(next) {
      tampering = next;
    },
    paymentsForwarded: () => forwarded,
    holdPaidAnswers() {
      let reach = () => {};
      const reached = new Promise<void>((resolve) => {
        reach = resolve;
      });
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      tampering = {
        after: async (request, upstream) => {
          if (request.headers.has("payment-signature")) {
            reach();
            await held;
          }
          return upstream;
        },
      };
      return { reached, release };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Rewrites a 402's PaymentRequired in both places a client reads it (header and JSON body).
 * @example after: async (_r, upstream) => rewriteChallenge(upstream, (pr) => ({ ...pr, accepts: [...] }))
 */
export async function rewriteChallenge(
  upstream: Response,
  change: (paymentRequired: PaymentRequired) => PaymentRequired,
): Promise<Response> {
  if (upstream.status !== 402) return upstream;
  const header = upstream.headers.get("payment-required");
  const headers = new Headers(upstream.headers);
  if (header !== null) {
    headers.set(
      "payment-required",
      encodePaymentRequiredHeader(change(decodePaymentRequiredHeader(header))),
    );
  }
  const body = (await upstream.json()) as PaymentRequired;
  return new Response(JSON.stringify(change(body)), { status: 402, headers });
}

async function readRequest(req: IncomingMessage): Promise<ProxiedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "host" || name === "connection") continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return {
    method: req.method ?? "GET",
    path: req.url ?? "/",
    headers,
    body: Buffer.concat(chunks).toString("utf8"),
  };
}
