import { DiligenceSchema } from "@presend/shared/api/snapshots/diligence";
import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { buildDiligence } from "./buildDiligence";
import { testObservation } from "./testObservation";

const shared = "0xDE000000000000000000000000000000000000a1" as Address;
const own = "0xdE000000000000000000000000000000000000e1" as Address;
const service = (slug: string, category: string, price: string, verified = true) => ({
  slug,
  name: slug,
  url: `https://${slug}.example`,
  status: "online",
  category,
  price_per_request: price,
  verified,
});

function observation() {
  const obs = testObservation(
    [
      service("cheap", "Data", "$0.01"),
      service("dear", "Data", "$0.05"),
      service("lone", "AI", "$1", false),
    ],
    [
      { slug: "cheap", evm: [{ network: "base", address: shared, from: "live" }] },
      {
        slug: "dear",
        evm: [
          { network: "base", address: shared, from: "directory" },
          { network: "base", address: own, from: "live" },
        ],
      },
      { slug: "lone", evm: [] },
    ],
  );
  const inflow = (tx: number, raw: bigint) => ({ tx, raw, senders: 1 });
  obs.evm = {
    base: {
      fromBlock: 1,
      toBlock: 9,
      refusedRanges: 0,
      inflows: new Map([
        [shared, inflow(3, 30n)],
        [own, inflow(4, 4n)],
      ]),
    },
    arbitrum: {
      fromBlock: 1,
      toBlock: 9,
      refusedRanges: 0,
      inflows: new Map([[own, inflow(1, 1n)]]),
    },
    refs: [],
  };
  for (const slug of ["cheap", "dear"]) {
    obs.discovery.set(slug, { reachable: true, docShape: "x402-v2-items", declared: [] });
  }
  obs.history = [
    { date: "2026-09-01", services: { lone: ["0xA"], cheap: [shared] } },
    { date: "2026-10-01", services: { lone: ["0xB"], cheap: [shared] } },
    { date: "2026-11-01", services: { lone: [] } },
    { date: "2026-11-21", services: { lone: ["0xA"], cheap: [shared] } },
  ];
  return obs;
}

describe("buildDiligence", () => {
  const digest = DiligenceSchema.parse(buildDiligence(observation()));
  const bySlug = (slug: string) => digest.top_50.find((entry) => entry.slug === slug);

  it("ranks by measured settlements across chains and sums USDC", () => {
    expect(digest.top_50.map((entry) => [entry.rank, entry.slug, entry.settlements_30d])).toEqual([
      [1, "dear", 8],
      [2, "cheap", 3],
      [3, "lone", 0],
    ]);
    expect(bySlug("dear")?.usdc_30d).toBe("0.000035");
    expect(digest.summary).toMatchObject({ settlements_30d: 11, services_with_settlements_30d: 2 });
  });

  it("flags payTo addresses shared by several services", () => {
    expect(bySlug("cheap")).toMatchObject({ shared_payout: true, shared_payout_with: ["dear"] });
    expect(bySlug("lone")).toMatchObject({ shared_payout: false, shared_payout_with: [] });
    expect(digest.summary.shared_payout_addresses).toBe(1);
  });

  it("ranks prices within the category", () => {
    expect(bySlug("cheap")?.price_percentile_in_category).toBe(50);
    expect(bySlug("dear")?.price_percentile_in_category).toBe(100);
    expect(bySlug("lone")?.price_percentile_in_category).toBe(100);
  });

  it("marks a live payTo the directory does not list as a mismatch", () => {
    expect(bySlug("dear")?.verification).toBe("mismatch");
    expect(bySlug("cheap")?.verification).toBe("verified");
    expect(bySlug("lone")?.verification).toBe("unverified");
  });

  it("counts payTo changes over the dated captures, ignoring captures without a payTo", () => {
    expect(bySlug("lone")?.payto_rotations_90d).toBe(1);
    expect(bySlug("cheap")?.payto_rotations_90d).toBe(0);
    expect(digest.rotators_90d.map((rotator) => [rotator.slug, rotator.rotations_90d])).toEqual([
      ["lone", 1],
    ]);
  });
});
