import type { Diligence, DiligenceEntry, Rotator } from "@presend/shared/api/snapshots/diligence";
import { snapshotLicense } from "@presend/shared/api/snapshots/snapshotCommon";
import type { Address } from "viem";
import { type Observation, payToOf } from "../collect";
import { buildLandscape } from "./buildLandscape";
import { usdc } from "./usdc";

type Measured = { settlements: number; raw: bigint };

function measuredFor(observation: Observation, payTo: string[]): Measured {
  let settlements = 0;
  let raw = 0n;
  for (const address of payTo) {
    for (const chain of [observation.evm?.arbitrum, observation.evm?.base]) {
      const inflow = chain?.inflows.get(address as Address);
      if (inflow) {
        settlements += inflow.tx;
        raw += inflow.raw;
      }
    }
    const solana = observation.solana?.result.inflows.get(address);
    if (solana) {
      settlements += solana.inflowTx;
      raw += solana.raw;
    }
  }
  return { settlements, raw };
}

// Percentile rank: the share of the category's priced services at or below this price.
function percentile(price: number | null, prices: number[]): number | null {
  if (price === null || prices.length === 0) return null;
  const atOrBelow = prices.filter((other) => other <= price).length;
  return Math.round((atOrBelow / prices.length) * 1000) / 10;
}

function rotationsOf(
  observation: Observation,
  slug: string,
): { count: number; history: Rotator["history"] } {
  const history = observation.history
    .filter((capture) => capture.services[slug] !== undefined)
    .map((capture) => ({ date: capture.date, payto: [...(capture.services[slug] ?? [])].sort() }));
  let count = 0;
  for (let i = 1; i < history.length; i++) {
    const before = history[i - 1]?.payto.join(",");
    const after = history[i]?.payto.join(",");
    // A capture without any payTo says nothing about rotation (the service was unreachable).
    if (before && after && before !== after) count++;
  }
  return { count, history };
}

/**
 * The diligence digest: top 50 services by measured 30-day settlements, with price percentile,
 * shared-payout flags, verification state and 90-day payTo rotations; plus the full rotators list.
 * @example const digest = buildDiligence(observation);
 */
export function buildDiligence(observation: Observation): Diligence {
  const landscape = buildLandscape(observation);
  const users = new Map<string, string[]>();
  for (const declarations of observation.declarations.values()) {
    for (const address of payToOf(declarations)) {
      users.set(address, [...(users.get(address) ?? []), declarations.slug]);
    }
  }
  const pricesByCategory = new Map<string, number[]>();
  for (const service of landscape.services) {
    if (service.min_price_usd === null) continue;
    pricesByCategory.set(service.category, [
      ...(pricesByCategory.get(service.category) ?? []),
      service.min_price_usd,
    ]);
  }

  const rotators: Rotator[] = [];
  const entries = landscape.services.map((service) => {
    const declarations = observation.declarations.get(service.slug);
    const payTo = declarations ? payToOf(declarations) : [];
    const measured = measuredFor(observation, payTo);
    const sharedWith = [...new Set(payTo.flatMap((address) => users.get(address) ?? []))]
      .filter((slug) => slug !== service.slug)
      .sort();
    const discovery = observation.discovery.get(service.slug);
    const directoryPayTo = new Set(
      (declarations?.evm ?? [])
        .filter((entry) => entry.from === "directory")
        .map((entry) => entry.address as string)
        .concat(
          (declarations?.solana ?? []).filter((e) => e.from === "directory").map((e) => e.address),
        ),
    );
    const livePayTo = [
      ...(declarations?.evm ?? [])
        .filter((entry) => entry.from === "live")
        .map((e) => e.address as string),
      ...(declarations?.solana ?? [])
        .filter((entry) => entry.from === "live")
        .map((e) => e.address),
    ];
    const unknownLive =
      directoryPayTo.size > 0 && livePayTo.some((address) => !directoryPayTo.has(address));
    const verification: DiligenceEntry["verification"] = unknownLive
      ? "mismatch"
      : service.verified && discovery?.reachable && livePayTo.length > 0
        ? "verified"
        : "unverified";
    const rotations = rotationsOf(observation, service.slug);
    if (rotations.count > 0) {
      rotators.push({
        slug: service.slug,
        name: service.name,
        rotations_90d: rotations.count,
        history: rotations.history,
      });
    }
    return {
      measured,
      entry: {
        rank: 0,
        slug: service.slug,
        name: service.name,
        category: service.category,
        base_url: service.base_url,
        settlements_30d: measured.settlements,
        usdc_30d: usdc(measured.raw),
        min_price_usd: service.min_price_usd,
        price_percentile_in_category: percentile(
          service.min_price_usd,
          pricesByCategory.get(service.category) ?? [],
        ),
        shared_payout: sharedWith.length > 0,
        shared_payout_with: sharedWith,
        verification,
        payto: payTo,
        payto_rotations_90d: rotations.count,
      } satisfies DiligenceEntry,
    };
  });

  entries.sort(
    (a, b) =>
      b.measured.settlements - a.measured.settlements ||
      (b.measured.raw > a.measured.raw ? 1 : b.measured.raw < a.measured.raw ? -1 : 0) ||
      (a.entry.slug < b.entry.slug ? -1 : 1),
  );
  const top = entries.slice(0, 50).map(({ entry }, index) => ({ ...entry, rank: index + 1 }));
  const totalRaw = entries.reduce((sum, { measured }) => sum + measured.raw, 0n);
  const sharedAddresses = [...users.values()].filter((slugs) => slugs.length > 1).length;
  rotators.sort((a, b) => b.rotations_90d - a.rotations_90d || (a.slug < b.slug ? -1 : 1));

  return {
    title: "x402 diligence digest",
    generated_at: observation.generatedAt,
    source: observation.provenance.source,
    note: observation.provenance.note,
    license: snapshotLicense,
    cite_as: `presend, x402 diligence digest, snapshot of ${observation.asOf}, ${snapshotLicense}`,
    method: [
      "Services come from the directory; payTo addresses from the directory and from each service's live /.well-known/x402, /openapi.json and 402 challenge.",
      "Settlements are USDC transfers into those payTo addresses over the 30-day window: Transfer logs on Arbitrum and Base, token-balance increases on Solana.",
      "An address shared by several services counts fully for each of them; such services carry shared_payout.",
      "Price percentile: share of the priced services of the same category at or below the service's lowest price.",
      "verified: the directory marks the service verified and its live documents publish a payTo; mismatch: the live documents publish a payTo the directory does not list.",
      "Rotations: changes of a service's payTo set between the dated captures of the last 90 days.",
    ],
    summary: {
      services_listed: landscape.services.length,
      services_with_settlements_30d: entries.filter(({ measured }) => measured.settlements > 0)
        .length,
      settlements_30d: entries.reduce((sum, { measured }) => sum + measured.settlements, 0),
      usdc_30d: usdc(totalRaw),
      verified_services: entries.filter(({ entry }) => entry.verification === "verified").length,
      services_sharing_payout: entries.filter(({ entry }) => entry.shared_payout).length,
      shared_payout_addresses: sharedAddresses,
      rotators_90d: rotators.length,
      window_30d: observation.window30,
      window_90d: observation.window90,
    },
    top_50: top,
    rotators_90d: rotators,
  };
}
