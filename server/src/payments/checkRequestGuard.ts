import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { chainNames, isChainName } from "@presend/shared/chains/chains";
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { jsonError } from "../http/jsonError";

/** Largest accepted request body: {address, chain} fits many times over. */
export const maxCheckBodyBytes = 4096;

/**
 * Validates the body of POST /check and /deep before the payment middleware sees the request,
 * so a malformed address, unknown chain or broken body is rejected (4xx) without a 402.
 * @example createRoute({ ..., middleware: [checkRequestGuard(), payments] })
 */
export function checkRequestGuard(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: maxCheckBodyBytes,
    onError: (c) =>
      jsonError(c, 413, "body_too_large", `The body is larger than ${maxCheckBodyBytes} bytes.`),
  });
  return async function checkRequestGuard(c, next) {
    const type = c.req.header("content-type") ?? "";
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return jsonError(
        c,
        415,
        "unsupported_media_type",
        'Send the body as JSON with "Content-Type: application/json".',
      );
    }
    return limit(c, async () => {
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        c.res = jsonError(c, 400, "invalid_json", "The body is not valid JSON.");
        return;
      }
      const problem = bodyProblem(body);
      if (problem) {
        c.res = jsonError(c, 400, problem.code, problem.message);
        return;
      }
      await next();
    });
  };
}

type Problem = {
  code:
    | "invalid_body"
    | "missing_address"
    | "invalid_address"
    | "checksum_mismatch"
    | "unknown_chain";
  message: string;
};

function bodyProblem(body: unknown): Problem | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return {
      code: "invalid_body",
      message: 'Send a JSON object: {"address": "0x...", "chain": "base"}.',
    };
  }
  const { address, chain } = body as Record<string, unknown>;
  if (address === undefined) {
    return {
      code: "missing_address",
      message: 'The body needs "address": "0x..." (40 hex characters).',
    };
  }
  if (typeof address !== "string") {
    return {
      code: "invalid_address",
      message: "address must be a string: 0x followed by 40 hex characters.",
    };
  }
  const status = checksumStatus(address);
  if (status.problem === "malformed") {
    return { code: "invalid_address", message: status.checksum.message };
  }
  if (status.problem === "checksum_mismatch") {
    return { code: "checksum_mismatch", message: status.checksum.message };
  }
  if (chain !== undefined && (typeof chain !== "string" || !isChainName(chain))) {
    return {
      code: "unknown_chain",
      message: `Unknown chain ${JSON.stringify(chain)}: use one of ${chainNames.join(", ")}.`,
    };
  }
  return null;
}
