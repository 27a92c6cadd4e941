import { createRoute, z } from "@hono/zod-openapi";
import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { ValidateResponseSchema } from "@presend/shared/api/validate";
import type { App } from "../http/appEnv";
import { jsonError } from "../http/jsonError";

const validateRoute = createRoute({
  method: "get",
  path: "/validate",
  tags: ["verification"],
  summary: "Free checksum pre-check",
  description:
    "Free EIP-55 checksum verdict for any supplied value. Run it before paying for /check so a malformed address never costs anything.",
  security: [],
  request: {
    query: z.object({
      address: z.string().optional().openapi({
        description: "The address to check: 0x followed by 40 hex characters.",
        example: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
      }),
    }),
  },
  responses: {
    200: {
      description:
        "Checksum verdict (also for values that are not addresses: valid is then false).",
      content: {
        "application/json": { schema: ValidateResponseSchema.openapi("ValidateResponse") },
      },
    },
    404: {
      description: "No address supplied.",
      content: { "application/json": { schema: ErrorBodySchema.openapi("Error") } },
    },
  },
});

/** Registers `GET /validate`, the free checksum pre-check. */
export function registerValidateRoute(app: App): void {
  app.openapi(validateRoute, (c) => {
    const { address } = c.req.valid("query");
    if (address === undefined || address.trim() === "") {
      return jsonError(
        c,
        404,
        "missing_address",
        "Supply the address to check: /validate?address=0x...",
      ) as never;
    }
    const result = checksumStatus(address);
    return c.json(
      {
        address,
        valid: result.valid,
        normalized: result.normalized,
        checksum: result.checksum,
      },
      200,
    );
  });
}
