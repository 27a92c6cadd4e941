import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// Production code throws PresendError subclasses, so callers can decide with instanceof and walk.
// A bare `new Error` loses the kind; a code glued on with Object.assign is read back by duck typing
// that nothing checks (a caller testing `instanceof NoWalletError` would miss it). Tests, test
// helpers (a workspace's `testing` folder), the benchmark, the scale harness and e2e may throw
// what they like.
const root = fileURLToPath(new URL("../..", import.meta.url));
const productionDirectories = [
  "shared",
  "client/src",
  "devnet/src",
  "server/src",
  "snapshots/src",
  "extension/src",
];
const notProduction = /\.(test|spec)\.tsx?$|test-helpers|Contract\.ts$/;
const forbidden: Array<[string, RegExp]> = [
  ["a bare Error", /\bthrow new Error\(/],
  ["a code attached with Object.assign", /Object\.assign\(\s*new \w*Error\(/],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ["node_modules", ".output", ".wxt", "testing"].includes(entry.name)
        ? []
        : sources(path);
    }
    return /\.tsx?$/.test(entry.name) && !notProduction.test(entry.name) ? [path] : [];
  });
}

describe("the error root is used everywhere", () => {
  const files = productionDirectories.flatMap((dir) => sources(join(root, dir)));

  it("scans the production code of every workspace", () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toContain("server/src/app.ts");
    expect(names).toContain("extension/src/lib/wallet/createPageWallet.ts");
    expect(names).not.toContain("shared/errors/PresendError.test.ts");
  });

  it("throws no bare Error and attaches no code with Object.assign", () => {
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          forbidden
            .filter(([, pattern]) => pattern.test(line))
            .map(([what]) => `${relative(root, file)}:${index + 1} ${what}: ${line.trim()}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it("recognises both patterns", () => {
    const [[, bare], [, assigned]] = forbidden as [[string, RegExp], [string, RegExp]];
    expect(bare.test('throw new Error("x")')).toBe(true);
    expect(assigned.test('throw Object.assign(new Error("x"), { code: "y" })')).toBe(true);
    expect(bare.test('throw new InputError("x")')).toBe(false);
  });
});
