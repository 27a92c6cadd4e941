import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { describe, expect, it } from "vitest";
import { agentGuidance } from "./agentGuidance";
import { createApp } from "./app";

describe("agentGuidance", () => {
  it("fits the crawlers' budget and names every price as the routes charge it", () => {
    expect(agentGuidance.length).toBeLessThan(4_000);
    expect(agentGuidance).toContain(`POST /check (${formatUsdc(routePrices.check)})`);
    expect(agentGuidance).toContain(`POST /deep (${formatUsdc(routePrices.deep)})`);
  });

  it("is what the OpenAPI document hands agents, and names the levels the reports carry", async () => {
    const app = createApp({ publicUrl: "http://127.0.0.1", probe: async () => [] });
    const document = (await (await app.request("/openapi.json")).json()) as {
      info: Record<string, unknown>;
    };
    expect(document.info["x-guidance"]).toBe(agentGuidance);
    // The paid routes and /.well-known/x402 come with the payments (their own tests serve them).
    expect((await app.request("/validate?address=0x0")).status).toBe(200);
    for (const level of ["ok", "caution", "warn", "danger"]) expect(agentGuidance).toContain(level);
  });
});
