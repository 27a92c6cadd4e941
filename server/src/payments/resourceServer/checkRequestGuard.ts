import { CheckRequestSchema } from "@presend/shared/api/report";
import { chainNames } from "@presend/shared/chains/chains";
import type { MiddlewareHandler } from "hono";
import { serverChecksumStatus } from "../../checksum/serverChecksumStatus";
import { jsonError } from "../../http/jsonError";

/**
 * Validates the body of POST /check and /deep before the payment middleware sees the request,
 * so a malformed address, unknown chain or broken body is rejected (4xx) without a 402. The body
 * arrives within its size limit (createApp's, for every route) and is parsed here once: Hono
 * keeps the parsed JSON, so the intake's request hash, the sign-in re-read and the route's own
 * validator read that same object.
 * @example createRoute({ ..., middleware: [checkRequestGuard(), paymentIntake(), ledger, envelope, x402] })
 */
export function checkRequestGuard(): MiddlewareHandler {
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
    // Nothing here decodes a compressed body: read as it came, a gzip body is "not valid JSON"
    // and one labelled with a coding it does not have passes as if unlabelled. Both are told the
    // body must come uncompressed (RFC 9110: 415, with Accept-Encoding naming what is taken).
    if (!uncompressed(c.req.header("content-encoding"))) {
      c.header("Accept-Encoding", "identity");
      return jsonError(
        c,
        415,
        "unsupported_media_type",
        "Send the body uncompressed: no Content-Encoding (gzip, br and the like are not accepted).",
      );
    }
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return jsonError(c, 400, "invalid_json", "The body is not valid JSON.");
    }
    const problem = bodyProblem(body);
    if (problem) return jsonError(c, 400, problem.code, problem.message);
    await next();
  };
}

/** No Content-Encoding, or only `identity` (the body as it is). */
function uncompressed(encoding: string | undefined): boolean {
  if (encoding === undefined) return true;
  return encoding
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .every((coding) => coding === "" || coding === "identity");
}

type Problem = {
  code:
    | "invalid_body"
    | "missing_address"
    | "invalid_address"
    | "checksum_mismatch"
    | "unknown_chain"
    | "invalid_from"
    | "from_equals_address";
  message: string;
};

// The request's shape is the shared zod schema every client uses; this maps its first issue to
// the API's stable error codes, then applies the EIP-55 rules zod cannot express.
function bodyProblem(body: unknown): Problem | null {
  const parsed = CheckRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    if (field === "chain") {
      const chain = (body as { chain?: unknown }).chain;
      return {
        code: "unknown_chain",
        message: `Unknown chain ${JSON.stringify(chain)}: use one of ${chainNames.join(", ")}.`,
      };
    }
    if (field === "from") {
      return {
        code: "invalid_from",
        message: "from must be a string: 0x followed by 40 hex characters.",
      };
    }
    if (field === "address") {
      return (body as { address?: unknown }).address === undefined
        ? {
            code: "missing_address",
            message: 'The body needs "address": "0x..." (40 hex characters).',
          }
        : {
            code: "invalid_address",
            message: "address must be a string: 0x followed by 40 hex characters.",
          };
    }
    return {
      code: "invalid_body",
      message: 'Send a JSON object: {"address": "0x...", "chain": "base"}.',
    };
  }
  const status = serverChecksumStatus(parsed.data.address);
  if (status.problem === "malformed") {
    return { code: "invalid_address", message: status.checksum.message };
  }
  if (status.problem === "checksum_mismatch") {
    return { code: "checksum_mismatch", message: status.checksum.message };
  }
  const from = parsed.data.from;
  if (from === undefined) return null;
  // The sender follows the address's rules, under a code of its own so a client knows which.
  const fromStatus = serverChecksumStatus(from);
  if (fromStatus.problem !== null) {
    return { code: "invalid_from", message: `from: ${fromStatus.checksum.message}` };
  }
  if (from.trim().toLowerCase() === parsed.data.address.trim().toLowerCase()) {
    return {
      code: "from_equals_address",
      message:
        "from is the address being checked: a check of your own address needs no sender; leave from out.",
    };
  }
  return null;
}
