import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type SnapshotKind, snapshotSchemas } from "@presend/shared/api/snapshots/snapshotKinds";
import { type SolanaRail, SolanaRailSchema } from "@presend/shared/api/snapshots/solanaRail";
import { InputError } from "@presend/shared/errors/InputError";
import { buildArbitrumRail } from "./build/buildArbitrumRail";
import { buildDiligence } from "./build/buildDiligence";
import { buildLandscape } from "./build/buildLandscape";
import { buildSolanaRail } from "./build/buildSolanaRail";
import { collect, type Observation, type Sources } from "./collect";
import { stableJson } from "./stableJson";

export type RunGeneratorOptions = {
  kinds: SnapshotKind[];
  sources: Sources;
  /** YYYY-MM-DD. Given: the windows end at its midnight UTC and nothing reads the clock. */
  asOf?: string;
  outDir: string;
  provenance: { source: string; note: string };
  now?: () => Date;
};

export type Written = { kind: SnapshotKind; file: string; bytes: string };

async function previousSolanaRail(outDir: string, asOf: string): Promise<SolanaRail | undefined> {
  const dir = join(outDir, "solana-rail");
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((name) => /^\d{4}-\d{2}-\d{2}\.json$/.test(name) && name.slice(0, 10) < asOf)
    .sort();
  const newest = names.at(-1);
  if (!newest) return undefined;
  const parsed = SolanaRailSchema.safeParse(JSON.parse(await readFile(join(dir, newest), "utf8")));
  if (!parsed.success)
    throw new InputError(`${join(dir, newest)}: not a valid solana-rail document`);
  return parsed.data;
}

function build(
  kind: SnapshotKind,
  observation: Observation,
  previous: SolanaRail | undefined,
): unknown {
  switch (kind) {
    case "landscape":
      return buildLandscape(observation);
    case "diligence":
      return buildDiligence(observation);
    case "arbitrum-rail":
      return buildArbitrumRail(observation);
    case "solana-rail":
      return buildSolanaRail(observation, previous);
  }
}

/**
 * Reads the sources once and writes `<outDir>/<kind>/<asOf>.json` for each requested kind, each
 * validated against its schema before it is written.
 * @example await runGenerator({ kinds: ["landscape"], sources, asOf: "2026-11-21", outDir, provenance });
 */
export async function runGenerator(options: RunGeneratorOptions): Promise<Written[]> {
  const windowEnd = options.asOf
    ? new Date(`${options.asOf}T00:00:00.000Z`)
    : (options.now ?? (() => new Date()))();
  const asOf = options.asOf ?? windowEnd.toISOString().slice(0, 10);
  const observation = await collect({
    sources: options.sources,
    asOf,
    windowEnd,
    provenance: options.provenance,
    measure: options.kinds.some((kind) => kind !== "landscape"),
  });
  const previous = options.kinds.includes("solana-rail")
    ? await previousSolanaRail(options.outDir, asOf)
    : undefined;
  const written: Written[] = [];
  for (const kind of options.kinds) {
    const parsed = snapshotSchemas[kind].schema.safeParse(build(kind, observation, previous));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InputError(
        `generated ${kind} is invalid at ${issue?.path.join(".")}: ${issue?.message}`,
      );
    }
    const bytes = stableJson(parsed.data);
    const file = join(options.outDir, kind, `${asOf}.json`);
    await mkdir(join(options.outDir, kind), { recursive: true });
    await writeFile(file, bytes);
    written.push({ kind, file, bytes });
  }
  return written;
}
