import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeFileWhole } from "./writeFileWhole";

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-whole-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("writeFileWhole", () => {
  it("replaces the file whole in a new folder, its owner's alone, leaving nothing beside it", () => {
    const dir = scratch();
    const file = join(dir, "nested", "state.json");
    writeFileWhole(file, "first\n");
    writeFileWhole(file, "second\n");
    expect(readFileSync(file, "utf8")).toBe("second\n");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, "nested"))).toEqual(["state.json"]);
  });

  it("leaves the old content and no stray file when the new one cannot be put in place", () => {
    const dir = scratch();
    // A folder where the file should go: the rename fails after the write.
    const blocked = join(dir, "blocked");
    writeFileWhole(join(blocked, "inside"), "kept\n");
    expect(() => writeFileWhole(blocked, "new\n")).toThrow();
    expect(readFileSync(join(blocked, "inside"), "utf8")).toBe("kept\n");
    expect(readdirSync(dir)).toEqual(["blocked"]);
  });
});
