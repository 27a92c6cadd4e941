import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { ValidateResponseSchema } from "@presend/shared/api/validate";
import { errorOf } from "../answers/errorOf";
import type { PresendConfig } from "../createPresendConfig";
import { describeCause } from "../outcomes";
import type { ValidateResult } from "../PresendResult";

/**
 * Inputs longer than this are answered here. No address is this long (42 characters and the
 * spaces a paste brings), and in the URL a long one would pass the server's 16 KB header limit:
 * a paste of a whole page would be told the server refused headers, not that it is no address.
 */
const longestSentInput = 1_000;

/**
 * The free checksum pre-check (GET /validate): the server's answer, or why there is none. An
 * input too long to send is given the verdict the server gives, from the same shared rules.
 * @example const result = await validate(config, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
 */
export async function validate(config: PresendConfig, address: string): Promise<ValidateResult> {
  if (address.length > longestSentInput) {
    const { valid, normalized, checksum } = checksumStatus(address);
    return { type: "validated", result: { address, valid, normalized, checksum } };
  }
  let response: Response;
  try {
    response = await config.send(`/validate?address=${encodeURIComponent(address)}`);
  } catch (cause) {
    return {
      type: "failed",
      status: null,
      code: "unreachable",
      message: `Cannot reach ${config.base}: ${describeCause(cause)}`,
    };
  }
  if (response.status !== 200) {
    const error = await errorOf(response);
    return { type: "failed", status: response.status, ...error };
  }
  const parsed = ValidateResponseSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) {
    return {
      type: "failed",
      status: 200,
      code: "malformed_answer",
      message: "The server's answer is malformed.",
    };
  }
  return { type: "validated", result: parsed.data };
}
