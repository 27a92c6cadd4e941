import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { demonstrationNote } from "@presend/shared/api/snapshots/snapshotCommon";
import { snapshotKinds, snapshotSchemas } from "@presend/shared/api/snapshots/snapshotKinds";
import { SolanaRailSchema } from "@presend/shared/api/snapshots/solanaRail";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureSources, startFixtureSources } from "./fixtureSources";
import { runGenerator } from "./runGenerator";

const fixturesDir = fileURLToPath(new URL("../fixtures", import.meta.url));
const committedDir = fileURLToPath(new URL("../", import.meta.url));
let fixtures: FixtureSources;
const temps: string[] = [];
beforeAll(async () => {
  fixtures = await startFixtureSources(fixturesDir);
});
afterAll(async () => {
  await fixtures?.stop();
  await Promise.all(temps.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function generateInto(asOf: string, outDir?: string) {
  const dir = outDir ?? (await mkdtemp(join(tmpdir(), "presend-generate-")));
  if (!outDir) temps.push(dir);
  const written = await runGenerator({
    kinds: [...snapshotKinds],
    sources: fixtures.sources,
    asOf,
    outDir: dir,
    provenance: fixtures.provenance,
  });
  return { dir, written };
}

describe("runGenerator against the fixtures and the local world", () => {
  it("is deterministic: the same inputs and --as-of give byte-identical documents", async () => {
    const first = await generateInto(fixtures.asOf);
    const second = await generateInto(fixtures.asOf);
    expect(second.written.map((w) => w.bytes)).toEqual(first.written.map((w) => w.bytes));
  });

  it("reproduces the committed documents byte for byte", async () => {
    const { written } = await generateInto(fixtures.asOf);
    for (const { kind, bytes } of written) {
      expect(bytes).toBe(await readFile(join(committedDir, kind, `${fixtures.asOf}.json`), "utf8"));
    }
  });

  it("writes valid documents that say they are demonstration data", async () => {
    const { written } = await generateInto(fixtures.asOf);
    expect(written.map((w) => w.kind)).toEqual([...snapshotKinds]);
    for (const { kind, bytes } of written) {
      const document = snapshotSchemas[kind].schema.parse(JSON.parse(bytes));
      expect(document.source).toContain(demonstrationNote);
      expect(document.note).toBe(demonstrationNote);
    }
  });

  it("records a live delta against the previous dated solana-rail document", async () => {
    const { dir } = await generateInto(fixtures.asOf);
    // A later run over the same inputs: the window moves, and the delta is computed from the first.
    const later = await generateInto("2026-11-28", dir);
    const rail = SolanaRailSchema.parse(
      JSON.parse(later.written.find((w) => w.kind === "solana-rail")?.bytes ?? ""),
    );
    const earlier = SolanaRailSchema.parse(
      JSON.parse(await readFile(join(dir, "solana-rail", `${fixtures.asOf}.json`), "utf8")),
    );
    expect(rail.last_delta_check).toBe("2026-11-28T00:00:00.000Z");
    expect(rail.live_deltas).toHaveLength(1);
    expect(rail.live_deltas[0]?.delta_tx).toBe(rail.headline.tx_30d - earlier.headline.tx_30d);
    expect(rail.live_deltas[0]?.running_totals_at_check.tx_30d).toBe(rail.headline.tx_30d);
  });
});
