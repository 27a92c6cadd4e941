import { createRoute } from "@hono/zod-openapi";
import { HealthResponseSchema } from "@presend/shared/api/health";
import type { ChainHealth } from "../health/probeChains";
import type { App } from "../http/appEnv";

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  tags: ["meta"],
  summary: "Which chains are reachable",
  security: [],
  responses: {
    200: {
      description: "Reachability of each chain's RPC; status is degraded when any chain is down.",
      content: { "application/json": { schema: HealthResponseSchema.openapi("HealthResponse") } },
    },
  },
});

/**
 * Registers `GET /health`; `probe` reads the chains (injected so tests control it; the server
 * passes a cachedProbe so callers cannot multiply upstream calls).
 */
export function registerHealthRoute(
  app: App,
  deps: { probe: () => Promise<ChainHealth[]>; version: string },
): void {
  app.openapi(healthRoute, async (c) => {
    const chains = await deps.probe();
    const status = chains.every((chain) => chain.reachable) ? "ok" : "degraded";
    // A reading at most a few seconds old (the probe is shared); clients should not keep it.
    c.header("Cache-Control", "no-store");
    return c.json({ status, version: deps.version, chains }, 200);
  });
}
