import type { z } from "zod";
import { ArbitrumRailSchema } from "./arbitrumRail";
import { DiligenceSchema } from "./diligence";
import { LandscapeSchema } from "./landscape";
import { SolanaRailSchema } from "./solanaRail";

/** The four snapshot kinds; each is a folder of dated files and a free GET route of the same name. */
export const snapshotKinds = ["diligence", "landscape", "arbitrum-rail", "solana-rail"] as const;
export type SnapshotKind = (typeof snapshotKinds)[number];

/** The schema every file of a kind must satisfy, and the OpenAPI component name it is served as. */
export const snapshotSchemas = {
  diligence: { schema: DiligenceSchema, component: "DiligenceDigest" },
  landscape: { schema: LandscapeSchema, component: "LandscapeList" },
  "arbitrum-rail": { schema: ArbitrumRailSchema, component: "ArbitrumRail" },
  "solana-rail": { schema: SolanaRailSchema, component: "SolanaRail" },
} as const satisfies Record<SnapshotKind, { schema: z.ZodType; component: string }>;

export type SnapshotDocument<K extends SnapshotKind> = z.infer<
  (typeof snapshotSchemas)[K]["schema"]
>;
