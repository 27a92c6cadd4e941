import {
  type Landscape,
  type LandscapeCategory,
  type LandscapeService,
  landscapeCategories,
  type NetworkCode,
} from "@presend/shared/api/snapshots/landscape";
import { snapshotLicense } from "@presend/shared/api/snapshots/snapshotCommon";
import type { Observation } from "../collect";
import { normalizeNetwork } from "../networks";
import type { DirectoryService } from "../sources/directorySource";

function category(raw: string | null | undefined): LandscapeCategory {
  const wanted = (raw ?? "").trim().toLowerCase();
  return landscapeCategories.find((name) => name.toLowerCase() === wanted) ?? "Other";
}

function status(raw: string): LandscapeService["status"] {
  const value = raw.trim().toLowerCase();
  if (["online", "up", "ok", "healthy"].includes(value)) return "online";
  if (["degraded", "slow", "partial"].includes(value)) return "degraded";
  return "offline";
}

function minPrice(service: DirectoryService): number | null {
  if (typeof service.min_price_usd === "number") return service.min_price_usd;
  const match = service.price_per_request?.match(/\d+(\.\d+)?/);
  return match ? Number(match[0]) : null;
}

function isoOrNull(raw: string | null | undefined): string | null {
  if (!raw || Number.isNaN(Date.parse(raw))) return null;
  return new Date(raw).toISOString();
}

function normalize(service: DirectoryService, observation: Observation): LandscapeService {
  const rawNetworks = service.networks ?? (service.network ? [service.network] : []);
  const codes = new Set<NetworkCode>();
  for (const raw of rawNetworks) {
    const network = normalizeNetwork(raw);
    if (network) codes.add(network.code);
  }
  const endpoints = service.endpoints;
  return {
    slug: service.slug,
    name: service.name,
    description: service.description ?? "",
    base_url: service.url,
    website_url: service.website_url ?? null,
    category: category(service.category),
    source: observation.directoryRef.name,
    status: status(service.status),
    verified: service.verified ?? false,
    payment_ready: service.payment_ready ?? false,
    endpoint_count: Array.isArray(endpoints) ? endpoints.length : (endpoints ?? 0),
    min_price_usd: minPrice(service),
    networks: [...codes].sort(),
    uptime_24h: service.uptime_24h ?? 0,
    avg_response_time_ms: service.avg_response_ms ?? null,
    // A listing without a creation date is dated by the capture that first shows it.
    created_at:
      isoOrNull(service.created_at) ?? isoOrNull(service.submitted_at) ?? observation.generatedAt,
    compliance_grade:
      service.compliance_grade === "A" || service.compliance_grade === "C"
        ? service.compliance_grade
        : "unknown",
  };
}

/**
 * The landscape list: the directory's services normalized to the documented fields.
 * @example const landscape = buildLandscape(observation);
 */
export function buildLandscape(observation: Observation): Landscape {
  const ref = observation.directoryRef;
  return {
    title: "x402 service landscape",
    captured_at: observation.generatedAt,
    source: observation.provenance.source,
    license: snapshotLicense,
    attribution: ref.attribution ?? ref.name,
    cite_as: `presend, x402 service landscape, snapshot of ${observation.asOf} (${ref.name}), ${snapshotLicense}`,
    note: observation.provenance.note,
    services: observation.services.map((service) => normalize(service, observation)),
  };
}
