import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demonstrationNote } from "@presend/shared/api/snapshots/snapshotCommon";
import { snapshotKinds } from "@presend/shared/api/snapshots/snapshotKinds";
import { afterEach, describe, expect, it } from "vitest";
import { defaultSnapshotsDir, loadSnapshots, SnapshotLoadError } from "./loadSnapshots";

const temps: string[] = [];
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function copyOfCommitted(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "presend-snapshots-"));
  temps.push(dir);
  for (const kind of snapshotKinds)
    await cp(join(defaultSnapshotsDir, kind), join(dir, kind), { recursive: true });
  return dir;
}

describe("loadSnapshots", () => {
  it("loads the committed documents, each validated and marked as demonstration data", async () => {
    const snapshots = await loadSnapshots();
    for (const kind of snapshotKinds) {
      const snapshot = snapshots[kind];
      expect(snapshot.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(JSON.parse(snapshot.body)).toEqual(snapshot.document);
      expect(snapshot.body).toContain(demonstrationNote);
    }
  });

  it("serves the newest dated file of a kind", async () => {
    const dir = await copyOfCommitted();
    const current = JSON.parse(await readFile(join(dir, "landscape", "2026-11-21.json"), "utf8"));
    const older = { ...current, title: "an older capture" };
    await writeFile(join(dir, "landscape", "2026-01-01.json"), JSON.stringify(older));
    await writeFile(join(dir, "landscape", "notes.json"), "{}");
    const snapshots = await loadSnapshots({ dir });
    expect(snapshots.landscape.date).toBe("2026-11-21");
    expect(snapshots.landscape.document).toMatchObject({ title: current.title });
  });

  it("computes the same strong ETag for the same bytes and a new one when they change", async () => {
    const dir = await copyOfCommitted();
    const first = await loadSnapshots({ dir });
    expect((await loadSnapshots({ dir })).diligence.etag).toBe(first.diligence.etag);
    const file = join(dir, "diligence", "2026-11-21.json");
    const document = JSON.parse(await readFile(file, "utf8"));
    await writeFile(file, JSON.stringify({ ...document, title: "changed" }));
    expect((await loadSnapshots({ dir })).diligence.etag).not.toBe(first.diligence.etag);
  });

  it("refuses a document with a bad field, naming the file and the field path", async () => {
    const dir = await copyOfCommitted();
    const file = join(dir, "landscape", "2026-11-21.json");
    const document = JSON.parse(await readFile(file, "utf8"));
    document.services[2].status = "sideways";
    await writeFile(file, JSON.stringify(document));
    const error = await loadSnapshots({ dir }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SnapshotLoadError);
    expect((error as SnapshotLoadError).fieldPath).toBe("services[2].status");
    expect((error as Error).message).toContain(join("landscape", "2026-11-21.json"));
    expect((error as Error).message).toContain("services[2].status");
  });

  it("refuses a file that is not JSON and a kind without any dated file", async () => {
    const dir = await copyOfCommitted();
    await writeFile(join(dir, "solana-rail", "2026-12-01.json"), "{ not json");
    await expect(loadSnapshots({ dir })).rejects.toThrow(
      /solana-rail.2026-12-01\.json: not valid JSON/,
    );
    await rm(join(dir, "solana-rail"), { recursive: true });
    await expect(loadSnapshots({ dir })).rejects.toThrow(/solana-rail: folder cannot be read/);
  });
});
