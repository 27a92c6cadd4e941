import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The repository carries its own contract and design (docs/, README.md, ARCHITECTURE.md). A
// comment or doc that points at a document a maintainer of this repository does not have (a
// design note's section, a spec's section, a style guide, a briefing) is a dead end: this test
// fails when one comes back. Public standards (RFC 9110 §13.1.2, EIP-55) are fine.
const outsideReferences: Array<[string, RegExp]> = [
  ["a design note's section", /\bDESIGN(?:\.md)?\s*§/],
  ["the design note", /\bDESIGN\.md\b/],
  ["a spec's section", /\bspec\s*§/i],
  ["the spec", /\bthe spec\b|\bspec's\b/i],
  ["the style guide", /\bSTYLE\.md\b/],
  ["the briefing", /\bthe brief(?:ing)?\b|\bseeds\/\d/i],
];

const root = fileURLToPath(new URL("..", import.meta.url));
const skippedDirectories = new Set([
  "node_modules",
  ".git",
  ".output",
  ".wxt",
  ".data",
  "test-results",
  // Recorded third-party answers and generated documents: not our words.
  "fixtures",
  "diligence",
  "landscape",
  "arbitrum-rail",
  "solana-rail",
  "history",
]);
const ourWords = /\.(ts|tsx|js|cjs|mjs|md|sol|ya?ml|conf|html|css)$|^(Dockerfile|run)$/;
const thisFile = fileURLToPath(import.meta.url);

function filesWithOurWords(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return skippedDirectories.has(entry.name) ? [] : filesWithOurWords(path);
    return ourWords.test(entry.name) && path !== thisFile ? [path] : [];
  });
}

/** The anchors GitHub gives a Markdown text's headings (a repeated one gets `-1`, `-2`, …). */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of markdown.matchAll(/^#{1,6}\s+(.+?)\s*$/gm)) {
    const base = (heading as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function headingAnchors(file: string): Set<string> {
  return anchorsOf(readFileSync(file, "utf8").replace(/^```[\s\S]*?^```/gm, ""));
}

describe("docs and comments stand alone", () => {
  const files = filesWithOurWords(root);

  it("reads the whole tree (sources, tests, docs, contracts)", () => {
    const names = files.map((file) => relative(root, file));
    expect(names).toContain("README.md");
    expect(names).toContain("ARCHITECTURE.md");
    expect(names).toContain("docs/api.md");
    expect(names).toContain("server/src/app.ts");
    expect(names.some((name) => name.startsWith("extension/src/"))).toBe(true);
    expect(names.some((name) => name.endsWith(".sol"))).toBe(true);
  });

  it("cites no document outside the repository", () => {
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) =>
          outsideReferences
            .filter(([, pattern]) => pattern.test(line))
            .map(([what]) => `${relative(root, file)}:${index + 1} cites ${what}: ${line.trim()}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it("links only to files that exist (a moved file must take its links with it)", () => {
    const docs = files.filter((file) => file.endsWith(".md"));
    const broken = docs.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\]\(([^)\s]+)\)/g)]
        .map((match) => match[1] as string)
        .filter((target) => !/^(?:[a-z]+:|#)/i.test(target))
        .filter((target) => !existsSync(resolve(dirname(file), target.split("#")[0] as string)))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(docs.length).toBeGreaterThan(3);
    expect(broken).toEqual([]);
  });

  it("links only to headings that exist (a renamed heading must take its links with it)", () => {
    const docs = files.filter((file) => file.endsWith(".md"));
    const broken = docs.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)]
        .map((match) => match[1] as string)
        .filter((target) => !/^[a-z]+:/i.test(target))
        .filter((target) => {
          const [path, anchor] = target.split("#") as [string, string];
          const linked = path === "" ? file : resolve(dirname(file), path);
          return linked.endsWith(".md") && !headingAnchors(linked).has(anchor);
        })
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("derives heading anchors as GitHub does", () => {
    const anchors = anchorsOf(
      "## The sender: address poisoning and first payments\n## The CLI\n### `presend mcp`\n## The CLI\n",
    );
    expect([...anchors]).toEqual([
      "the-sender-address-poisoning-and-first-payments",
      "the-cli",
      "presend-mcp",
      "the-cli-1",
    ]);
  });

  it("catches each kind of outside reference", () => {
    for (const line of [
      "// see DESIGN §4",
      "as DESIGN.md says",
      "(spec §2.3)",
      "what the spec promises",
      "the spec's fields",
      "per STYLE.md",
      "as the brief asks",
      "../shared/seeds/000_abc.txt",
    ]) {
      expect(
        outsideReferences.some(([, pattern]) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    expect(outsideReferences.some(([, pattern]) => pattern.test("RFC 9110 §13.1.2"))).toBe(false);
  });
});
