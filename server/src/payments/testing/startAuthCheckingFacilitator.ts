import { Hono } from "hono";
import { type Listening, listen } from "../../http/listen";

/** The facilitator endpoints a resource server calls. */
export type FacilitatorEndpoint = "verify" | "settle" | "supported";

export type AuthCheckingFacilitatorOptions = {
  /** The facilitator every accepted call is forwarded to (presend's own, over HTTP). */
  forwardTo: string;
  /** The FACILITATOR_AUTH_TOKEN that facilitator requires, sent on every forwarded call. */
  forwardToken: string;
  /** Path prefix the hosted facilitator serves under (CDP: /platform/v2/x402). */
  prefix?: string;
  /** Checks the call's Authorization header; returns why it is refused, or null. */
  check: (authorization: string | null, endpoint: FacilitatorEndpoint) => Promise<string | null>;
};

export type AuthCheckingFacilitator = Listening & {
  /** The URL a FacilitatorConfig points at (with the prefix). */
  facilitatorUrl: string;
  /** Calls accepted and refused, in order. */
  calls: Array<{ endpoint: FacilitatorEndpoint; refused: string | null }>;
};

/**
 * A stand-in for a hosted facilitator (CDP, PayAI) on a loopback port: it checks the
 * Authorization header of every /verify, /settle and /supported call as the provider would, answers
 * 401 when it does not hold, and forwards the others to a real facilitator.
 * @example const hosted = await startAuthCheckingFacilitator({ forwardTo: service.url, forwardToken, check });
 */
export async function startAuthCheckingFacilitator(
  options: AuthCheckingFacilitatorOptions,
): Promise<AuthCheckingFacilitator> {
  const prefix = options.prefix ?? "";
  const calls: AuthCheckingFacilitator["calls"] = [];
  const app = new Hono();
  for (const endpoint of ["verify", "settle", "supported"] as const) {
    const method = endpoint === "supported" ? "get" : "post";
    app[method](`${prefix}/${endpoint}`, async (c) => {
      const refused = await options.check(c.req.header("authorization") ?? null, endpoint);
      calls.push({ endpoint, refused });
      if (refused !== null) return c.json({ error: refused }, 401);
      const forwarded = await fetch(`${options.forwardTo}/${endpoint}`, {
        method: c.req.method,
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${options.forwardToken}`,
        },
        ...(method === "post" && { body: await c.req.text() }),
      });
      return new Response(forwarded.body, {
        status: forwarded.status,
        headers: { "content-type": "application/json" },
      });
    });
  }
  const server = await listen(app, { port: 0 });
  return { ...server, facilitatorUrl: `${server.url}${prefix}`, calls };
}
