import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import type { FacilitatorClient } from "@x402/core/server";
import { paymentNetworks } from "../paymentNetworks";

const networkNames: Record<string, string> = {
  [paymentNetworks.mainnet.network]: "Base",
  [paymentNetworks.testnet.network]: "Base Sepolia",
};
const named = (network: string) =>
  networkNames[network] ? `${network} (${networkNames[network]})` : network;

/**
 * Stops start-up when the facilitator does not settle x402 `exact` on the network presend takes
 * payments on (a testnet facilitator behind a mainnet server, or the other way round). It
 * answers, so start-up would go on, yet every paid request would be refused as if it could not
 * be reached, and /readyz would say ready. The message names what it settles instead.
 * @example await requireExactSettlement(facilitator, "eip155:8453");
 */
export async function requireExactSettlement(
  facilitator: Pick<FacilitatorClient, "getSupported">,
  network: string,
): Promise<void> {
  const { kinds } = await facilitator.getSupported();
  const settles = kinds.some(
    (kind) => kind.x402Version === 2 && kind.scheme === "exact" && kind.network === network,
  );
  if (settles) return;
  const listed = [
    ...new Set(kinds.map((kind) => `${kind.scheme} on ${named(String(kind.network))}`)),
  ];
  throw new ConfigurationError(
    `the facilitator does not settle exact payments on ${named(network)}, where presend takes them (PRESEND_NETWORK); it lists ${listed.length > 0 ? listed.join(", ") : "nothing"}. Point it at a facilitator of that network`,
  );
}
