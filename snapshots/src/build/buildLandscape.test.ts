import { LandscapeSchema } from "@presend/shared/api/snapshots/landscape";
import { describe, expect, it } from "vitest";
import { buildLandscape } from "./buildLandscape";
import { testObservation } from "./testObservation";

const base = { slug: "a", name: "A", url: "https://a.example", status: "online" };

describe("buildLandscape", () => {
  it.each([
    [{ category: "content" }, { category: "Content" }],
    [{ category: "Misc" }, { category: "Other" }],
    [{ status: "down" }, { status: "offline" }],
    [{ status: "Degraded" }, { status: "degraded" }],
    [{ compliance_grade: "B" }, { compliance_grade: "unknown" }],
    [{ compliance_grade: "A" }, { compliance_grade: "A" }],
    [
      {
        networks: [
          "base",
          "eip155:42161",
          "solana",
          "avalanche",
          "base-sepolia",
          "polygon",
          "tron",
        ],
      },
      { networks: ["ARB", "AVX", "BSE", "BSP", "POL", "SOL"] },
    ],
    [{ network: "base" }, { networks: ["BSE"] }],
    [{ price_per_request: "$0.015" }, { min_price_usd: 0.015 }],
    [{ price_per_request: null }, { min_price_usd: null }],
    [{ endpoints: [{}, {}] }, { endpoint_count: 2 }],
    [
      { created_at: null, submitted_at: "2026-01-15T09:00:00Z" },
      { created_at: "2026-01-15T09:00:00.000Z" },
    ],
  ])("normalizes %j to %j", (input, expected) => {
    const landscape = buildLandscape(testObservation([{ ...base, ...input }]));
    expect(landscape.services[0]).toMatchObject(expected);
    expect(LandscapeSchema.parse(landscape)).toEqual(landscape);
  });

  it("keeps the directory's attribution and license", () => {
    const landscape = buildLandscape(testObservation([base]));
    expect(landscape).toMatchObject({
      attribution: "test attribution",
      license: "CC BY 4.0",
      note: "test note",
    });
  });
});
