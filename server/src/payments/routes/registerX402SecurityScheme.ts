import { chains } from "@presend/shared/chains/chains";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { App } from "../../http/appEnv";

/** Name of the OpenAPI security scheme of the paid routes. */
export const x402SecurityScheme = "x402";

/**
 * Documents how a paid route is paid: the x402 payment header as an OpenAPI security scheme the
 * paid routes name in their `security`.
 * @example registerX402SecurityScheme(app);
 */
export function registerX402SecurityScheme(app: App): void {
  app.openAPIRegistry.registerComponent("securitySchemes", x402SecurityScheme, {
    type: "apiKey",
    in: "header",
    name: "PAYMENT-SIGNATURE",
    description: `x402 v2 payment (scheme exact, EIP-3009 USDC on Base ${chains.base.caip2}; a server with channels also offers batch-settlement: one deposit, then a voucher per check): send the request, take the PaymentRequired from the 402 (PAYMENT-REQUIRED header or JSON body), sign it and resend it base64-encoded in PAYMENT-SIGNATURE or X-Payment. /check costs ${routePrices.check} and /deep ${routePrices.deep} USDC base units.`,
  });
}
