import { OpenAPIHono } from "@hono/zod-openapi";
import type { ErrorCode } from "@presend/shared/api/errors";
import { reportSignatureHeader } from "@presend/shared/attestation/reportSigningInput";
import { presendIconSvg } from "@presend/shared/brand/presendIcon";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import { agentGuidance } from "./agentGuidance";
import type { ChainHealth } from "./health/probeChains";
import { apiCors } from "./http/apiCors";
import type { App, AppEnv } from "./http/appEnv";
import { jsonError } from "./http/jsonError";
import { limits } from "./limits";
import { withRateLimitAnswers } from "./rateLimit/withRateLimitAnswers";
import { registerHealthRoute } from "./routes/healthRoute";
import { registerValidateRoute } from "./routes/validateRoute";

export const apiVersion = "1.0.0";

export type AppDeps = {
  /** Public base URL of the API, used in the OpenAPI servers list and discovery documents. */
  publicUrl: string;
  /** Reads chain reachability for /health. */
  probe: () => Promise<ChainHealth[]>;
  /** Further route groups (paid routes, discovery, data documents), registered in order. */
  routeGroups?: Array<(app: App) => void>;
  /** Registered before every route: request ids, logs, metrics, probes, rate limits. */
  beforeRoutes?: Array<(app: App) => void>;
  /** Proofs that the operator owns this origin, published for x402 crawlers. */
  ownershipProofs?: string[];
  /**
   * The answer to an unexpected error on a request about a payment (one it carried, or a kept
   * report it fetches), from what its record says was charged; null when the request has nothing
   * to do with a payment. Without it (or on null) the answer is the 500 "nothing was charged",
   * true of a route that takes no payment.
   */
  failedRequestAnswer?: (c: Context<AppEnv>) => Promise<Response | null>;
};

/** Headers that describe an answer's body, so never outlive it. */
const bodyBoundHeaders = [reportSignatureHeader, "etag", "payment-required"];

// Status codes Hono's own validators and middleware raise, mapped to our stable codes.
const httpExceptionCodes: Partial<Record<number, ErrorCode>> = {
  400: "invalid_json",
  413: "body_too_large",
  415: "unsupported_media_type",
  404: "not_found",
  405: "method_not_allowed",
};

/**
 * Builds the whole HTTP API without binding a port (main.ts does that, tests call app.request).
 * @example const app = createApp({ publicUrl: "http://127.0.0.1:8402", probe });
 */
export function createApp(deps: AppDeps): App {
  const app = new OpenAPIHono<AppEnv>({
    // One answer for every schema failure, so no route leaks zod's raw error format.
    defaultHook: (result, c) => {
      if (result.success) return;
      const issue = result.error.issues[0];
      const field = issue?.path.join(".") || "request";
      // A query parameter given twice reads as a list; zod's words for it ("expected string,
      // received array") would call the value invalid when the trouble is that there are two.
      if (result.target === "query" && (c.req.queries(field)?.length ?? 0) > 1) {
        return jsonError(c, 400, "invalid_body", `Give ${field} once: one value is asked.`);
      }
      const code: ErrorCode = field === "address" ? "invalid_address" : "invalid_body";
      return jsonError(c, 400, code, `Invalid ${field}: ${issue?.message ?? "bad value"}`);
    },
  });

  for (const register of deps.beforeRoutes ?? []) register(app);
  // Registered before the middleware so none of it runs for the hottest route: a GET has no body
  // to limit, and its answer carries its own CORS headers (corsJson).
  registerValidateRoute(app);
  app.use("*", apiCors());
  // GET and HEAD carry no body; skipping them keeps @hono/node-server's fast request path.
  const limitBody = bodyLimit({
    maxSize: limits.requestBodyBytes,
    onError: (c) =>
      jsonError(
        c,
        413,
        "body_too_large",
        `Request bodies are limited to ${limits.requestBodyBytes} bytes.`,
      ),
  });
  const limitWholeBody: MiddlewareHandler = async (c, next) => {
    let reachedRoutes = false;
    try {
      return await limitBody(c, () => {
        reachedRoutes = true;
        return next();
      });
    } catch (error) {
      if (reachedRoutes) throw error;
      // The body stopped before its end (a chunked body cut off, broken framing, a client gone or
      // timed out): Node's answer (answerClientErrors) has gone out already, if the client is
      // still there to read one. A broken request, not a fault of presend: no 500 to count.
      return jsonError(
        c,
        400,
        "malformed_request",
        "The request's body did not arrive whole; send it again.",
      );
    }
  };
  // GET and HEAD go straight on (no async frame on the hottest route, /validate).
  app.use("*", (c, next) =>
    c.req.method === "GET" || c.req.method === "HEAD" ? next() : limitWholeBody(c, next),
  );

  registerHealthRoute(app, { probe: deps.probe, version: apiVersion });
  for (const register of deps.routeGroups ?? []) register(app);

  const documentConfig = {
    openapi: "3.1.0",
    info: {
      title: "presend",
      version: apiVersion,
      description:
        "Pre-send safety check for EVM addresses. Paid per call with x402 v2 (USDC on Base); no accounts, no API keys. A pre-send safety check, not a guarantee: it reads public on-chain state and does no mempool analysis, contract audit or sanctions screening.",
      "x-guidance": agentGuidance,
    },
    servers: [{ url: deps.publicUrl }],
    tags: [
      {
        name: "verification",
        description: "Address checks (paid) and the free checksum pre-check.",
      },
      { name: "data", description: "Free dated snapshot documents (CC BY 4.0)." },
      { name: "meta", description: "Service health and discovery." },
    ],
    // Where x402 crawlers (@agentcash/discovery) read an operator's proof of owning the origin.
    ...(deps.ownershipProofs?.length && {
      "x-agentcash-provenance": { ownershipProofs: deps.ownershipProofs },
    }),
  } as Parameters<typeof app.getOpenAPI31Document>[0];
  // Served by hand rather than by app.doc31: every operation gets the 429 the rate limits answer
  // (withRateLimitAnswers), and a document that cannot be generated is the app's plain 500, not
  // doc31's JSON of the raw error.
  app.get("/openapi.json", (c) =>
    c.json(withRateLimitAnswers(app.getOpenAPI31Document(documentConfig))),
  );

  // The icon crawlers of x402 services (and browsers) show beside the origin.
  app.get("/favicon.svg", (c) => {
    c.header("Cache-Control", "public, max-age=86400");
    return c.body(presendIconSvg, 200, { "Content-Type": "image/svg+xml" });
  });

  app.notFound((c) => jsonError(c, 404, "not_found", `No route ${c.req.method} ${c.req.path}.`));
  app.onError(async (error, c) => {
    // An error answer is built from the answer made before the error (Hono starts a response from
    // its headers, and carries them over again when the error answer replaces it). What is true
    // of the request stays (CORS, a settlement, where its report is kept); what belonged to that
    // answer's body goes: a report's signature or ETag, or a 14 KB challenge, on an error body.
    try {
      for (const name of bodyBoundHeaders) c.res.headers.delete(name);
    } catch {
      // Headers that cannot change (a fetched response): the answer is replaced whole.
      c.res = undefined;
    }
    if (error instanceof HTTPException) {
      const code = httpExceptionCodes[error.status] ?? "invalid_body";
      const status = error.status >= 400 && error.status < 500 ? error.status : 400;
      return jsonError(c, status as 400, code, error.message || "Bad request.");
    }
    // A bug, not bad input: log it for the operator, tell the caller nothing internal, and
    // claim nothing about a charge that is not known.
    console.error(error);
    const answer = deps.failedRequestAnswer
      ? await deps.failedRequestAnswer(c).catch(() => unknownCharge(c))
      : null;
    return answer ?? jsonError(c, 500, "internal_error", "Internal error; nothing was charged.");
  });
  return app;
}

/** When even the payment's reading failed: whether anything was charged is not known. */
function unknownCharge(c: Context<AppEnv>): Response {
  return jsonError(
    c,
    500,
    "internal_error",
    "Internal error; if this request carried a payment, whether it was charged is not known: ask /receipts before paying again.",
  );
}
