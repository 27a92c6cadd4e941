import type { PaymentRequirements } from "@x402/core/types";
import { describe, expect, it } from "vitest";
import { paidRoutes } from "../paidRoutes";
import { withRouteDescription } from "./withRouteDescription";

const requirement: PaymentRequirements = {
  scheme: "exact",
  network: "eip155:8453",
  asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
  amount: "10000",
  payTo: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  maxTimeoutSeconds: 60,
  extra: { name: "USD Coin", version: "2" },
};

describe("withRouteDescription", () => {
  it("adds the route's description, media type and outputSchema, keeping every payment term", () => {
    const route = paidRoutes["/deep"];
    const [described] = withRouteDescription([requirement], route);
    expect(described).toEqual({
      ...requirement,
      description: route.description,
      mimeType: "application/json",
      outputSchema: route.outputSchema,
    });
  });

  it("leaves the requirements it was given unchanged", () => {
    const accepts = [requirement];
    withRouteDescription(accepts, paidRoutes["/check"]);
    expect(accepts[0]).not.toHaveProperty("description");
  });
});
