import { UpstreamError } from "@presend/shared/errors/UpstreamError";

/**
 * The person declined to switch their wallet to the chain presend is paid on (Base): nothing was
 * asked to be signed yet, so this is not a declined payment.
 */
export class SwitchDeclinedError extends UpstreamError<"switch_declined"> {
  override name = "SwitchDeclinedError";
  constructor(options: { cause: unknown }) {
    super("You declined to switch your wallet to Base.", {
      code: "switch_declined",
      cause: options.cause,
    });
  }
}
