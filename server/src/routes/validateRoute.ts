import { createRoute, z } from "@hono/zod-openapi";
import { type ErrorBody, ErrorBodySchema } from "@presend/shared/api/errors";
import { ValidateResponseSchema } from "@presend/shared/api/validate";
import { serverChecksumStatus } from "../checksum/serverChecksumStatus";
import { corsJson } from "../http/apiCors";
import type { App } from "../http/appEnv";

const ValidateQuerySchema = z.object({
  address: z.string().optional().openapi({
    description: "The address to check: 0x followed by 40 hex characters.",
    example: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  }),
});

const validateRoute = createRoute({
  method: "get",
  path: "/validate",
  tags: ["verification"],
  summary: "Free checksum pre-check",
  description:
    "Free EIP-55 checksum verdict for any supplied value. Run it before paying for /check so a malformed address never costs anything.",
  security: [],
  request: {
    query: ValidateQuerySchema,
  },
  responses: {
    200: {
      description:
        "Checksum verdict (also for values that are not addresses: valid is then false).",
      content: {
        "application/json": {
          schema: ValidateResponseSchema.extend({}).openapi("ValidateResponse"),
        },
      },
    },
    400: {
      description:
        "invalid_body: the address query parameter given more than once (which one to check is not known).",
      content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
    },
    404: {
      description: "No address supplied.",
      content: { "application/json": { schema: ErrorBodySchema.extend({}).openapi("Error") } },
    },
  },
});

/** Registers `GET /validate`, the free checksum pre-check. */
export function registerValidateRoute(app: App): void {
  // Documented from the same route definition, but served by a plain handler that parses the one
  // query field with the same zod schema: the generic validator middleware costs this, the
  // hottest route, a measurable share of its throughput (see npm run bench).
  app.openAPIRegistry.registerPath(validateRoute);
  app.get(validateRoute.path, (c) => {
    // Every value parsed only when the URL can hold two: queries() parses the whole query
    // string, which the hottest route does not pay for on every request.
    const url = c.req.url;
    const every =
      url.indexOf("address=") !== url.lastIndexOf("address=") ? c.req.queries("address") : null;
    if (every && every.length > 1) {
      // Answering for the first value would call "valid" a request that also carried another,
      // perhaps the one meant: the caller sends one.
      const twice: ErrorBody = {
        error: {
          code: "invalid_body",
          message: "Give address once: /validate?address=0x... checks one value.",
        },
      };
      return corsJson(c, twice, 400);
    }
    const query = ValidateQuerySchema.safeParse({
      address: every ? every[0] : c.req.query("address"),
    });
    const address = query.success ? query.data.address : undefined;
    if (address === undefined || address.trim() === "") {
      // The CORS middleware runs after this route, never for it: its refusal carries its own
      // CORS headers too, or a page that forgot the address would see a network error.
      const missing: ErrorBody = {
        error: {
          code: "missing_address",
          message: "Supply the address to check: /validate?address=0x...",
        },
      };
      return corsJson(c, missing, 404);
    }
    const result = serverChecksumStatus(address);
    // Answered on node-server's fast path, its CORS headers included.
    return corsJson(c, {
      address,
      valid: result.valid,
      normalized: result.normalized,
      checksum: result.checksum,
    });
  });
}
