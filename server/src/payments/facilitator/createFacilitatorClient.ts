import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import {
  type FacilitatorClient,
  type FacilitatorConfig,
  HTTPFacilitatorClient,
} from "@x402/core/server";
import { z } from "zod";
import { limits } from "../../limits";

/**
 * How presend authenticates to a facilitator over HTTP. `none`: a plain URL (the public testnet
 * facilitator, or a self-hosted one behind a private network); `bearer`: a shared secret in
 * `Authorization: Bearer`; `cdp`: Coinbase's hosted facilitator, a JWT per call made by
 * `@coinbase/x402` from a CDP API key; `payai`: PayAI's facilitator, a JWT made by
 * `@payai/facilitator` from a PayAI API key.
 */
export const FacilitatorAuthSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("none") }),
  z.object({ type: z.literal("bearer"), token: z.string().min(1) }),
  z.object({
    type: z.literal("cdp"),
    apiKeyId: z.string().min(1),
    apiKeySecret: z.string().min(1),
  }),
  z.object({
    type: z.literal("payai"),
    apiKeyId: z.string().min(1),
    apiKeySecret: z.string().min(1),
  }),
]);
export type FacilitatorAuth = z.infer<typeof FacilitatorAuthSchema>;

/** A facilitator reached over HTTP; `url` may be left out for a hosted one (its own default). */
export const RemoteFacilitatorSchema = z.object({
  type: z.literal("remote"),
  url: z.url({ protocol: /^https?$/ }).optional(),
  auth: FacilitatorAuthSchema.default({ type: "none" }),
  /**
   * How long each call may wait for the facilitator's answer. A verification past it is refused
   * (nothing was charged); a settlement past it is decided from the chain.
   */
  timeouts: z
    .object({
      verifyMs: z.number().int().positive().default(limits.facilitatorVerifyMs),
      settleMs: z.number().int().positive().default(limits.facilitatorSettleMs),
    })
    .default({ verifyMs: limits.facilitatorVerifyMs, settleMs: limits.facilitatorSettleMs }),
});
export type RemoteFacilitator = z.input<typeof RemoteFacilitatorSchema>;

/**
 * The official `HTTPFacilitatorClient` for a remote facilitator, with the headers its operator
 * asks for on every `/verify`, `/settle` and `/supported` call. The hosted providers' own packages
 * make their JWTs (fresh per call, bound to the method and path); a given `url` overrides the
 * provider's default (a proxy in front of it, or a test double). A provider's package is loaded
 * only when it is chosen (Coinbase's pulls in its whole SDK: about 350 ms at start).
 * The official client waits 90 s for any answer, and a payer cannot wait that long for a
 * facilitator that hangs: it takes one deadline for all its calls, so verification (and
 * `/supported`) and settlement each go through a client of their own with its own deadline.
 * @example await createFacilitatorClient({ type: "remote", auth: { type: "cdp", apiKeyId, apiKeySecret } })
 */
export async function createFacilitatorClient(
  input: RemoteFacilitator,
): Promise<FacilitatorClient> {
  const { url, auth, timeouts } = RemoteFacilitatorSchema.parse(input);
  const config = await facilitatorConfig(auth, url);
  const verifying = new HTTPFacilitatorClient({ ...config, timeoutMs: timeouts.verifyMs });
  const settling = new HTTPFacilitatorClient({ ...config, timeoutMs: timeouts.settleMs });
  return {
    verify: (payload, requirements) => verifying.verify(payload, requirements),
    settle: (payload, requirements) => settling.settle(payload, requirements),
    getSupported: () => verifying.getSupported(),
  };
}

async function facilitatorConfig(
  auth: FacilitatorAuth,
  url: string | undefined,
): Promise<FacilitatorConfig> {
  switch (auth.type) {
    case "cdp": {
      const { createFacilitatorConfig } = await import("@coinbase/x402");
      const hosted = createFacilitatorConfig(auth.apiKeyId, auth.apiKeySecret);
      return { ...hosted, url: url ?? hosted.url };
    }
    case "payai": {
      const { createFacilitatorConfig } = await import("@payai/facilitator");
      const hosted = createFacilitatorConfig(auth.apiKeyId, auth.apiKeySecret);
      return { ...hosted, url: url ?? (hosted.url as string) } as FacilitatorConfig;
    }
    case "bearer": {
      const headers = { Authorization: `Bearer ${auth.token}` };
      return {
        url: required(url),
        createAuthHeaders: async () => ({ verify: headers, settle: headers, supported: headers }),
      };
    }
    case "none":
      return { url: required(url) };
  }
}

function required(url: string | undefined): string {
  if (url === undefined) {
    throw new ConfigurationError("FACILITATOR_URL: is required without a hosted provider");
  }
  return url;
}
