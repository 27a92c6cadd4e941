import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { describe, expect, it } from "vitest";
import * as stub from "./zodWithoutJsonSchema";

// zod's classic schemas, the module whose imports the stub stands in for.
const zodDir = dirname(createRequire(import.meta.url).resolve("zod/package.json"));
const classicSchemas = readFileSync(join(zodDir, "v4/classic/schemas.js"), "utf8");

describe("zodWithoutJsonSchema", () => {
  it("exports every name zod's schemas read from the JSON Schema writer", () => {
    const used = new Set(classicSchemas.match(/(?<=\bprocessors\.)\w+(?=\()/g) ?? []);
    const named = /import \{([^}]+)\} from "\.\.\/core\/to-json-schema\.js"/.exec(classicSchemas);
    for (const name of named?.[1]?.split(",") ?? []) if (name.trim()) used.add(name.trim());
    expect(used.size).toBeGreaterThan(10);
    const exported = stub as Record<string, unknown>;
    expect([...used].filter((name) => typeof exported[name] !== "function")).toEqual([]);
  });

  it("refuses JSON Schema output in words of its own", () => {
    expect(() => stub.toJSONSchema()).toThrow(ConfigurationError);
    expect(() => stub.createToJSONSchemaMethod()()).toThrow("left out of this script");
  });
});
