const methods = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

/**
 * The 429 every documented operation may answer: the rate limits (rateLimits) sit in front of
 * every route the document lists (only the operator's probes and CORS preflights pass them, and
 * neither is in the document), so the answer is added here once rather than in each route's
 * declaration, where a new route would forget it.
 */
const rateLimitedAnswer = {
  description:
    "rate_limited: over a per-client limit (RATE_LIMITS; on by default on mainnet). Retry-After says when to come back; nothing was charged.",
  headers: {
    "Retry-After": {
      description: "Seconds until the client's window ends.",
      required: true,
      schema: { type: "integer", minimum: 0 },
    },
    RateLimit: {
      description: "draft-7 RateLimit: limit, remaining and reset of the window.",
      required: true,
      schema: { type: "string" },
    },
    "RateLimit-Policy": {
      description: "draft-7 RateLimit-Policy: the limit and its window in seconds.",
      required: true,
      schema: { type: "string" },
    },
  },
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
} as const;

/**
 * The document with the 429 added to every operation that does not declare one.
 * @example c.json(withRateLimitAnswers(app.getOpenAPI31Document(config)))
 */
export function withRateLimitAnswers<T extends { paths?: object }>(document: T): T {
  for (const operations of Object.values(document.paths ?? {}) as unknown[]) {
    if (typeof operations !== "object" || operations === null) continue;
    for (const [method, operation] of Object.entries(operations)) {
      if (!methods.has(method) || typeof operation !== "object" || operation === null) continue;
      const responses = (operation as { responses?: Record<string, unknown> }).responses;
      if (responses !== undefined && !("429" in responses)) responses["429"] = rateLimitedAnswer;
    }
  }
  return document;
}
