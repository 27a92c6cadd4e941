import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// ARCHITECTURE.md is where a newcomer learns what each folder holds: a folder added to a
// workspace's source without a line there is code nobody is told about.
const root = fileURLToPath(new URL("..", import.meta.url));
const described = ["shared", "client/src", "server/src", "devnet/src"];

function folders(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "node_modules")
    .map((entry) => entry.name);
}

/** Whether `text` names `folder` in a code path: `hex/`, `src/chain/history/`, `exact/payExact`. */
function namesFolder(text: string, folder: string): boolean {
  return [...text.matchAll(/`([^`\s]+)`/g)].some((match) => {
    const path = match[1] as string;
    return path.startsWith(`${folder}/`) || path.includes(`/${folder}/`);
  });
}

describe("ARCHITECTURE.md", () => {
  const architecture = readFileSync(join(root, "ARCHITECTURE.md"), "utf8");

  it.each(described)("names every folder of %s", (dir) => {
    const found = folders(dir);
    expect(found.length).toBeGreaterThan(0);
    expect(found.filter((folder) => !namesFolder(architecture, folder))).toEqual([]);
  });

  it("tells a folder named from one only mentioned in passing", () => {
    expect(namesFolder("  - `hex/`: the 32-byte pattern", "hex")).toBe(true);
    expect(namesFolder("`exact/payExact`: the spend cap", "exact")).toBe(true);
    expect(namesFolder("(`src/chain/history/`)", "history")).toBe(true);
    expect(namesFolder("(`src/chain/history/readHistory.ts`)", "chain")).toBe(true);
    expect(namesFolder("hex digits, `hexadecimal/`", "hex")).toBe(false);
    expect(namesFolder("the hex/ folder", "hex")).toBe(false);
  });
});
