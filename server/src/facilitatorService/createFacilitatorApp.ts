import { createHash, timingSafeEqual } from "node:crypto";
import type { ErrorBody, ErrorCode } from "@presend/shared/api/errors";
import { PaymentPayloadV2Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { FacilitatorClient } from "@x402/core/server";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "pino";
import { z } from "zod";
import type { Metrics } from "../observability/createMetrics";
import { observeRequests } from "../observability/observeRequests";
import { type Readiness, registerOpsRoutes } from "../observability/registerOpsRoutes";

export type FacilitatorAppDeps = {
  /** The official x402 facilitator (in process, with its settlement key). */
  facilitator: FacilitatorClient;
  logger: Logger;
  metrics: Metrics;
  readiness: () => Promise<Readiness>;
  /** The fleet's shared secret (FACILITATOR_AUTH_TOKEN): the replicas send it as a Bearer token. */
  authToken: string;
};

// The body the official HTTPFacilitatorClient posts to /verify and /settle; the payload and the
// requirements are checked with the x402 package's own schemas.
const FacilitatorRequestSchema = z.object({
  x402Version: z.number().int(),
  paymentPayload: z.unknown(),
  paymentRequirements: z.unknown(),
});

/**
 * The facilitator over HTTP, as the official HTTPFacilitatorClient calls it: POST /verify,
 * POST /settle, GET /supported (plus /livez, /readyz, /metrics). N API replicas point
 * FACILITATOR_URL here and share one settlement key; each request but the probes carries the
 * fleet's token (401 `facilitator_unauthorized` without it).
 * @example const app = createFacilitatorApp({ facilitator, logger, metrics, readiness, authToken });
 */
export function createFacilitatorApp(deps: FacilitatorAppDeps): Hono {
  const app = new Hono();
  app.use("*", observeRequests({ logger: deps.logger, metrics: deps.metrics }));
  registerOpsRoutes(app, { metrics: deps.metrics, readiness: deps.readiness });
  app.use(
    "*",
    bodyLimit({
      maxSize: 64 * 1024,
      onError: (c) => error(c, 413, "body_too_large", "Request bodies are limited to 64 KB."),
    }),
  );

  // Only the fleet's replicas may ask: anyone else could have presend pay the gas of their
  // settlements. The operator's probes above stay open.
  const expected = createHash("sha256").update(deps.authToken).digest();
  app.use("*", async (c, next) => {
    const presented = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    const digest = createHash("sha256").update(presented).digest();
    if (!timingSafeEqual(digest, expected)) {
      return error(
        c,
        401,
        "facilitator_unauthorized",
        "Send the fleet's FACILITATOR_AUTH_TOKEN as Authorization: Bearer <token>.",
      );
    }
    await next();
  });

  app.get("/supported", async (c) => c.json(await deps.facilitator.getSupported()));

  app.post("/verify", async (c) => {
    const parsed = await parseRequest(c);
    if (parsed instanceof Response) return parsed;
    return c.json(await deps.facilitator.verify(parsed.payload, parsed.requirements));
  });

  app.post("/settle", async (c) => {
    const parsed = await parseRequest(c);
    if (parsed instanceof Response) return parsed;
    const result = await deps.facilitator.settle(parsed.payload, parsed.requirements);
    deps.metrics.settlements.inc({ outcome: result.success ? "settled" : "failed" });
    if (!result.success) {
      deps.logger.warn({ reason: result.errorReason, payer: result.payer }, "settlement failed");
    }
    return c.json(result);
  });

  app.notFound((c) => error(c, 404, "not_found", `No route ${c.req.method} ${c.req.path}.`));
  app.onError((failure, c) => {
    // A settlement that threw may or may not be on chain: say so, and log the cause for the operator.
    deps.logger.error({ err: failure, path: c.req.path }, "facilitator error");
    if (c.req.path === "/settle") deps.metrics.settlements.inc({ outcome: "error" });
    return error(c, 500, "internal_error", "The facilitator could not complete the request.");
  });
  return app;
}

async function parseRequest(c: Context) {
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    return error(c, 400, "invalid_json", "The body is not JSON.");
  }
  const body = FacilitatorRequestSchema.safeParse(json);
  const payload = PaymentPayloadV2Schema.safeParse(body.data?.paymentPayload);
  const requirements = PaymentRequirementsV2Schema.safeParse(body.data?.paymentRequirements);
  if (!body.success || !payload.success || !requirements.success) {
    return error(
      c,
      400,
      "invalid_body",
      "Expected { x402Version, paymentPayload, paymentRequirements } as x402 v2 defines them.",
    );
  }
  // The schemas check the network's CAIP-2 form at run time; their inferred type says string.
  return {
    payload: payload.data as PaymentPayload,
    requirements: requirements.data as PaymentRequirements,
  };
}

function error(c: Context, status: ContentfulStatusCode, code: ErrorCode, message: string) {
  const body: ErrorBody = { error: { code, message } };
  return c.json(body, status);
}
