import { z } from "zod";
import type { FacilitatorAuth } from "../payments/facilitator/createFacilitatorClient";

const secret = z.string().min(1).optional();

/**
 * The settings of a hosted facilitator, named as the providers' own packages read them:
 * FACILITATOR_PROVIDER (cdp or payai), CDP_API_KEY_ID / CDP_API_KEY_SECRET (Coinbase's
 * `@coinbase/x402`), PAYAI_API_KEY_ID / PAYAI_API_KEY_SECRET (`@payai/facilitator`).
 */
export const facilitatorEnv = {
  FACILITATOR_PROVIDER: z.enum(["cdp", "payai"]).optional(),
  CDP_API_KEY_ID: secret,
  CDP_API_KEY_SECRET: secret,
  PAYAI_API_KEY_ID: secret,
  PAYAI_API_KEY_SECRET: secret,
};

type FacilitatorEnv = {
  FACILITATOR_PROVIDER?: "cdp" | "payai" | undefined;
  FACILITATOR_AUTH_TOKEN?: string | undefined;
} & { [K in Exclude<keyof typeof facilitatorEnv, "FACILITATOR_PROVIDER">]?: string | undefined };

const keysOf = {
  cdp: ["CDP_API_KEY_ID", "CDP_API_KEY_SECRET"],
  payai: ["PAYAI_API_KEY_ID", "PAYAI_API_KEY_SECRET"],
} as const;

/** The key settings a chosen provider lacks (each is required: its calls are keyed). */
export function missingFacilitatorKeys(env: FacilitatorEnv): string[] {
  if (env.FACILITATOR_PROVIDER === undefined) return [];
  return keysOf[env.FACILITATOR_PROVIDER].filter((key) => !env[key]);
}

/**
 * How presend authenticates to its remote facilitator, from the parsed settings: the provider's
 * API key; else the fleet's shared secret as a Bearer token (FACILITATOR_AUTH_TOKEN, which
 * `presend facilitator` requires); else none (a plain FACILITATOR_URL).
 * @example facilitatorAuthOf({ FACILITATOR_PROVIDER: "cdp", CDP_API_KEY_ID, CDP_API_KEY_SECRET })
 */
export function facilitatorAuthOf(env: FacilitatorEnv): FacilitatorAuth {
  const provider = env.FACILITATOR_PROVIDER;
  if (provider === undefined) {
    const token = env.FACILITATOR_AUTH_TOKEN;
    return token ? { type: "bearer", token } : { type: "none" };
  }
  const [id, secretKey] = keysOf[provider];
  return { type: provider, apiKeyId: env[id] ?? "", apiKeySecret: env[secretKey] ?? "" };
}
