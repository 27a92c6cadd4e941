import type { PaymentRequirements } from "@x402/core/types";
import type { PaidRoute } from "../routes/paidRoutes";

export type SpecPaymentRequirements = PaymentRequirements & {
  description: string;
  mimeType: "application/json";
  outputSchema: PaidRoute["outputSchema"];
};

/**
 * Adds the API contract's entry fields (description, mimeType, outputSchema) to the requirements
 * the official packages built. Only for the 402 body and discovery: the PAYMENT-REQUIRED header
 * stays exactly what @x402/core produced, so official clients pay it unmodified.
 * @example withSpecFields(paymentRequired.accepts, paidRoutes["/check"])
 */
export function withSpecFields(
  accepts: readonly PaymentRequirements[],
  route: PaidRoute,
): SpecPaymentRequirements[] {
  return accepts.map((entry) => ({
    ...entry,
    description: route.description,
    mimeType: "application/json",
    outputSchema: route.outputSchema,
  }));
}
