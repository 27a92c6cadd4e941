import type { PaymentRequirements } from "@x402/core/types";
import type { PaidRoute } from "../paidRoutes";

/** Payment requirements that also say what the paid route is: its description, media type and I/O. */
export type DescribedPaymentRequirements = PaymentRequirements & {
  description: string;
  mimeType: "application/json";
  outputSchema: PaidRoute["outputSchema"];
};

/**
 * Adds what the paid route is (description, mimeType, outputSchema) to each requirement
 * the official packages built. Only for the 402 body and discovery: the PAYMENT-REQUIRED header
 * stays exactly what @x402/core produced, so official clients pay it unmodified.
 * @example withRouteDescription(paymentRequired.accepts, paidRoutes["/check"])
 */
export function withRouteDescription(
  accepts: readonly PaymentRequirements[],
  route: PaidRoute,
): DescribedPaymentRequirements[] {
  return accepts.map((entry) => ({
    ...entry,
    description: route.description,
    mimeType: "application/json",
    outputSchema: route.outputSchema,
  }));
}
