import type { ErrorBody } from "@presend/shared/api/errors";
import type { Hono } from "hono";
import type { Metrics } from "./createMetrics";

export type Readiness = { ready: true } | { ready: false; reason: string };

export type OpsRoutesDeps = {
  metrics: Metrics;
  /** Whether this process should get traffic now (dependencies reachable, not draining). */
  readiness: () => Promise<Readiness>;
  /** What /readyz reports beside its answer without deciding it (the facilitator's last state). */
  report?: () => Record<string, unknown>;
};

/**
 * Registers the operator's routes, outside the public API document: GET /livez (the process
 * answers), GET /readyz (it should get traffic: 503 while starting, draining or cut off from what
 * it needs; the body also carries `report`'s facts, which never decide it) and GET /metrics
 * (Prometheus text format).
 * @example registerOpsRoutes(app, { metrics, readiness: async () => ({ ready: true }) });
 */
// biome-ignore lint/suspicious/noExplicitAny: any Hono app (the API, the facilitator service).
export function registerOpsRoutes(app: Hono<any>, deps: OpsRoutesDeps): void {
  app.get("/livez", (c) => {
    c.header("Cache-Control", "no-store");
    return c.json({ status: "ok" });
  });
  app.get("/readyz", async (c) => {
    c.header("Cache-Control", "no-store");
    const readiness = await deps.readiness().catch(
      (error: unknown): Readiness => ({
        ready: false,
        reason: error instanceof Error ? error.message : String(error),
      }),
    );
    const report = deps.report?.() ?? {};
    if (readiness.ready) return c.json({ status: "ready", ...report });
    const body: ErrorBody = { error: { code: "not_ready", message: readiness.reason } };
    return c.json({ ...body, ...report }, 503);
  });
  app.get("/metrics", async (c) => {
    c.header("Content-Type", deps.metrics.registry.contentType);
    c.header("Cache-Control", "no-store");
    return c.body(await deps.metrics.registry.metrics());
  });
}
