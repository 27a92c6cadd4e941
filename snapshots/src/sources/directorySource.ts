import type { SourceRef } from "@presend/shared/api/snapshots/snapshotCommon";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { z } from "zod";

// The x402 List API item (`GET /api/v1/services`). Only slug, name, url and status are always
// present; the rest is optional so a directory that omits a field still parses.
export const DirectoryServiceSchema = z.object({
  slug: z.string().min(1),
  name: z.string(),
  description: z.string().nullish(),
  url: z.string(),
  website_url: z.string().nullish(),
  category: z.string().nullish(),
  network: z.string().nullish(),
  networks: z.array(z.string()).nullish(),
  status: z.string(),
  verified: z.boolean().nullish(),
  payment_ready: z.boolean().nullish(),
  endpoints: z.union([z.number().int().nonnegative(), z.array(z.unknown())]).nullish(),
  price_per_request: z.string().nullish(),
  min_price_usd: z.number().nullish(),
  uptime_24h: z.number().nullish(),
  avg_response_ms: z.number().nullish(),
  created_at: z.string().nullish(),
  submitted_at: z.string().nullish(),
  compliance_grade: z.string().nullish(),
  pay_to: z.array(z.object({ network: z.string(), address: z.string() })).nullish(),
});
export type DirectoryService = z.infer<typeof DirectoryServiceSchema>;

const PageSchema = z.object({
  data: z.array(DirectoryServiceSchema),
  meta: z.object({ page: z.number().int(), total_pages: z.number().int().nonnegative() }),
});

/** A list of x402 services, as a directory publishes it. */
export interface DirectorySource {
  readonly ref: SourceRef;
  listServices(): Promise<DirectoryService[]>;
}

export type HttpDirectorySourceOptions = {
  /** Origin of the directory, e.g. https://x402-list.com. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Safety stop against a directory whose pagination never ends. */
  maxPages?: number;
};

/**
 * Reads every page of `GET {baseUrl}/api/v1/services` (the x402 List API shape, CC BY 4.0).
 * @example const services = await httpDirectorySource({ baseUrl: "https://x402-list.com" }).listServices();
 */
export function httpDirectorySource(options: HttpDirectorySourceOptions): DirectorySource {
  const doFetch = options.fetch ?? fetch;
  const origin = options.baseUrl.replace(/\/+$/, "");
  const host = new URL(origin).host;
  return {
    ref: {
      name: `x402 service directory (${host})`,
      url: `${origin}/api/v1/services`,
      role: "service list: names, categories, networks, prices, status",
      license: "CC BY 4.0",
      attribution: `Service list from the x402 directory at ${origin}, licensed CC BY 4.0`,
    },
    async listServices() {
      const services: DirectoryService[] = [];
      const maxPages = options.maxPages ?? 100;
      for (let page = 1; page <= maxPages; page++) {
        const url = `${origin}/api/v1/services?page=${page}&per_page=100`;
        const response = await doFetch(url, { headers: { accept: "application/json" } });
        if (!response.ok) throw new UpstreamError(`directory ${url} answered ${response.status}`);
        const parsed = PageSchema.safeParse(await response.json());
        if (!parsed.success) {
          throw new UpstreamError(
            `directory ${url}: unexpected shape: ${parsed.error.issues[0]?.message}`,
            {
              cause: parsed.error,
            },
          );
        }
        services.push(...parsed.data.data);
        if (page >= parsed.data.meta.total_pages) break;
      }
      return services;
    },
  };
}
