import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import {
  type SnapshotKind,
  snapshotKinds,
  snapshotSchemas,
} from "@presend/shared/api/snapshots/snapshotKinds";
import type { LoadedSnapshots } from "./loadSnapshots";

/** Snapshots change only at deploy, so an hour of caching is safe; the ETag makes revalidation cheap. */
export const snapshotCacheControl = "public, max-age=3600";

const summaries: Record<SnapshotKind, string> = {
  diligence: "Diligence digest: top services by 30-day settlements (dated snapshot)",
  landscape: "Landscape list of x402 services (dated snapshot)",
  "arbitrum-rail": "Arbitrum-rail measurement: declared Arbitrum payTo addresses and their inflow",
  "solana-rail": "Solana-rail measurement: declared Solana payTo addresses and their inflow",
};

// If-None-Match uses the weak comparison (RFC 9110 §13.1.2): W/ prefixes do not matter; * matches all.
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === "*" || tag === etag);
}

function routeFor(kind: SnapshotKind) {
  const { schema, component } = snapshotSchemas[kind];
  const headers = z.object({
    ETag: z.string().openapi({ description: "Strong validator of the document bytes" }),
    "Cache-Control": z.string().openapi({ example: snapshotCacheControl }),
  });
  return createRoute({
    method: "get",
    path: `/${kind}`,
    tags: ["data"],
    security: [],
    summary: summaries[kind],
    description: "Free. A dated snapshot licensed CC BY 4.0, not a live feed.",
    responses: {
      200: {
        description: "The newest dated document of this kind",
        headers,
        content: { "application/json": { schema: schema.openapi(component) } },
      },
      304: { description: "Not modified: the If-None-Match ETag is current", headers },
    },
  });
}

/**
 * Registers GET /diligence, /landscape, /arbitrum-rail and /solana-rail (tag data, free).
 * @example registerDataRoutes(app, await loadSnapshots());
 */
// biome-ignore lint/suspicious/noExplicitAny: the app's env belongs to the caller; these routes use none of it.
export function registerDataRoutes(app: OpenAPIHono<any>, snapshots: LoadedSnapshots): void {
  for (const kind of snapshotKinds) {
    const snapshot = snapshots[kind];
    const headers = { ETag: snapshot.etag, "Cache-Control": snapshotCacheControl };
    app.openapi(routeFor(kind), (c) => {
      if (matches(c.req.header("If-None-Match"), snapshot.etag)) return c.body(null, 304, headers);
      return c.body(snapshot.body, 200, {
        ...headers,
        "Content-Type": "application/json; charset=utf-8",
      });
    });
  }
}
