import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import type { FacilitatorClient } from "@x402/core/server";

/**
 * Whether the facilitator settles batch-settlement on `network` (its supported kinds name it):
 * channels are offered only where their claims can be settled. Required and missing, or the
 * kinds unreadable, start-up stops saying so.
 * @example if (await facilitatorSettlesChannels(facilitator, network, { required: false, warn })) register();
 */
export async function facilitatorSettlesChannels(
  facilitator: Pick<FacilitatorClient, "getSupported">,
  network: string,
  options: {
    required: boolean;
    /** Where "only exact is offered" is reported (the server's log). */
    warn: (message: string) => void;
    /** What the operator set to choose this facilitator, named when it does not answer. */
    setting?: string;
  },
): Promise<boolean> {
  let supported: Awaited<ReturnType<FacilitatorClient["getSupported"]>>;
  try {
    supported = await facilitator.getSupported();
  } catch (error) {
    throw new ConfigurationError(
      `${options.setting ?? "FACILITATOR_URL"}: the facilitator's supported payment kinds could not be read (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  const settles = supported.kinds.some(
    (kind) =>
      kind.x402Version === 2 && kind.scheme === "batch-settlement" && kind.network === network,
  );
  if (!settles && options.required) {
    throw new ConfigurationError(
      `CHANNELS=on, but the facilitator does not settle batch-settlement on ${network}: use one that does, or CHANNELS=off for exact only`,
    );
  }
  if (!settles) {
    options.warn(
      `the facilitator does not settle batch-settlement on ${network}; only exact is offered`,
    );
  }
  return settles;
}
