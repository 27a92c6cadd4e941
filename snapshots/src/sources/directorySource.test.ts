import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ReplayServer, startReplayServer } from "../replay/startReplayServer";
import { httpDirectorySource } from "./directorySource";

const recorded = fileURLToPath(new URL("../../fixtures/http", import.meta.url));
let replay: ReplayServer;
beforeAll(async () => {
  replay = await startReplayServer({ dir: recorded });
});
afterAll(() => replay?.stop());

describe("httpDirectorySource", () => {
  it("reads every page of /api/v1/services and keeps the CC BY 4.0 attribution", async () => {
    const pages: { response: { json: { data: unknown[] } } }[] = JSON.parse(
      await readFile(`${recorded}/directory.example.json`, "utf8"),
    );
    const source = httpDirectorySource({
      baseUrl: "https://directory.example/",
      fetch: replay.fetch,
    });
    const services = await source.listServices();
    expect(pages.length).toBeGreaterThan(1);
    expect(services).toHaveLength(
      pages.reduce((sum, page) => sum + page.response.json.data.length, 0),
    );
    expect(source.ref.license).toBe("CC BY 4.0");
    expect(source.ref.attribution).toContain("https://directory.example");
  });

  it("fails with the URL when the directory does not answer", async () => {
    const source = httpDirectorySource({
      baseUrl: "https://missing-directory.example",
      fetch: replay.fetch,
    });
    await expect(source.listServices()).rejects.toThrow(/missing-directory\.example.*404/);
  });
});
