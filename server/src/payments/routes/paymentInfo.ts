import { chains } from "@presend/shared/chains/chains";
import { formatUnits } from "viem";
import type { PaidPath } from "../paidRoutes";
import type { PaymentsConfig } from "../paymentsConfig";
import { maxTimeoutSeconds } from "../paymentTerms";

/** The OpenAPI operation field x402 crawlers read a paid operation's price and protocol from. */
export const paymentInfoField = "x-payment-info";

/**
 * The `x-payment-info` of a paid operation, in the structured shape x402 crawlers
 * (`@agentcash/discovery`, x402scan) read: the fixed price in USD, and under `x402` what a payer
 * signs for (scheme, network, asset, amount in base units, payTo, validity). Advisory: the live
 * 402 stays the truth a client pays against.
 * @example createRoute({ ..., [paymentInfoField]: paymentInfo(config, "/check") })
 */
export function paymentInfo(
  config: PaymentsConfig,
  path: PaidPath,
  channels: { receiverAuthorizer: string } | null = null,
) {
  const amount = config.prices[path];
  const exact = {
    x402Version: 2,
    scheme: "exact",
    network: config.network,
    asset: config.asset,
    amount,
    payTo: config.payTo,
    maxTimeoutSeconds,
  };
  return {
    price: {
      mode: "fixed" as const,
      currency: "USD",
      amount: formatUnits(BigInt(amount), chains.base.usdc.decimals),
    },
    // The same order as the 402's accepts: exact first, then the channel when offered.
    protocols: [
      { x402: exact },
      ...(channels === null
        ? []
        : [
            {
              x402: {
                ...exact,
                scheme: "batch-settlement",
                receiverAuthorizer: channels.receiverAuthorizer,
              },
            },
          ]),
    ],
  };
}
