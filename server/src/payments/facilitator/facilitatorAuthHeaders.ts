import type { FacilitatorConfig } from "@x402/core/server";

/**
 * What the replicas add to each request to FACILITATOR_URL: the fleet's shared secret as a
 * Bearer token on verify, settle and supported (`presend facilitator` refuses requests without
 * it). Nothing without a token (a facilitator that needs none).
 * @example new HTTPFacilitatorClient({ url, ...facilitatorAuthHeaders(token) })
 */
export function facilitatorAuthHeaders(
  token: string | undefined,
): Pick<FacilitatorConfig, "createAuthHeaders"> {
  if (token === undefined) return {};
  const headers = { Authorization: `Bearer ${token}` };
  return {
    createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
  };
}
