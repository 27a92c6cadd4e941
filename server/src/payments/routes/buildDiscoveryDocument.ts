import type {
  AttestationBlock,
  PreviousAttestationKey,
} from "@presend/shared/attestation/attestationSchemas";
import { chainNames } from "@presend/shared/chains/chains";
import { priceInUsd } from "@presend/shared/pricing/priceInUsd";
import type { Payments } from "../createPayments";
import { exampleRequest, paidRoutes } from "../paidRoutes";
import {
  type DescribedPaymentRequirements,
  withRouteDescription,
} from "../resourceServer/withRouteDescription";

export type DiscoveryDocument = {
  version: 1;
  resources: string[];
  items: Array<{
    resource: string;
    type: "http";
    x402Version: 2;
    accepts: DescribedPaymentRequirements[];
  }>;
  lastUpdated: string;
  metadata: {
    api: string;
    category: string;
    contract: string;
    description: string;
    provider: string;
    home: string;
    docsUrl: string;
    discovery: string;
    example: { method: "POST"; url: string; body: { address: string; chain: string } };
    chains: string[];
    honestLimits: string;
  };
  attestation: AttestationBlock;
  /** Keys that signed before the current one, the last time each did and the statement by which each handed over. */
  previousAttestationKeys: PreviousAttestationKey[];
};

export type BuildDiscoveryOptions = {
  payments: Payments;
  publicUrl: string;
  /** When the paid offer last changed (start-up time). */
  lastUpdated: Date;
  /** Keys that signed reports before the current one (ATTESTATION_PREVIOUS_KEYS_FILE). */
  previousKeys?: PreviousAttestationKey[];
};

export const honestLimits =
  "presend reads public on-chain state through public RPC endpoints. It is a pre-send safety check, not a guarantee: no mempool analysis, no contract audit (known wallet kinds are recognised, their code is not reviewed), no sanctions screening; scam and exchange lists only as the operator loads them, and sender history only as far as the endpoint serves it. Anything that could not be read (a chain, a balance, a classification) is never reported as ok.";

/**
 * The x402 discovery document (items, lastUpdated, metadata, attestation) plus `version` and `resources` for x402scan-style crawlers.
 * @example const doc = await buildDiscoveryDocument({ payments, publicUrl, lastUpdated: new Date() });
 */
export async function buildDiscoveryDocument(
  options: BuildDiscoveryOptions,
): Promise<DiscoveryDocument> {
  const { publicUrl } = options;
  const items = await Promise.all(
    Object.values(paidRoutes).map(async (route) => ({
      resource: `${publicUrl}${route.path}`,
      type: "http" as const,
      x402Version: 2 as const,
      accepts: withRouteDescription(await options.payments.requirements(route.path), route),
    })),
  );
  return {
    version: 1,
    resources: items.map((item) => item.resource),
    items,
    lastUpdated: options.lastUpdated.toISOString(),
    metadata: {
      api: "presend",
      category: "Verification",
      contract: `${publicUrl}/openapi.json`,
      description: `Pre-send safety check for EVM addresses: EIP-55 checksum, wallet or contract, outgoing transactions, native/USDC/USDT balances and a leveled verdict (ok, caution, warn, danger) with a next action. /check covers one chain (USD ${priceInUsd("check")}); /deep covers five and adds wrong-network and token-mismatch detection (USD ${priceInUsd("deep")}). Run the free GET /validate first.`,
      provider: "presend",
      home: publicUrl,
      docsUrl: `${publicUrl}/openapi.json`,
      discovery: `${publicUrl}/.well-known/x402`,
      example: {
        method: "POST",
        url: `${publicUrl}/check`,
        body: { ...exampleRequest },
      },
      chains: [...chainNames],
      honestLimits,
    },
    attestation: options.payments.attestation.current(),
    previousAttestationKeys: options.previousKeys ?? [],
  };
}
