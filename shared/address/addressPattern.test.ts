import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isAddress } from "viem";
import { describe, expect, it } from "vitest";
import { addressPattern, hexAddressSource } from "./addressPattern";

describe("addressPattern", () => {
  it.each([
    ["0xd8da6bf26964af9d7eed9e03e53415d37aa96045", true],
    ["0xD8DA6BF26964AF9D7EED9E03E53415D37AA96045", true],
    ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", true],
    // Shape only: a wrong mixed-case checksum still matches; checksumStatus refuses it.
    ["0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96046", true],
    ["0xd8da6bf26964af9d7eed9e03e53415d37aa9604", false],
    ["0xd8da6bf26964af9d7eed9e03e53415d37aa960455", false],
    ["d8da6bf26964af9d7eed9e03e53415d37aa96045", false],
    ["0Xd8da6bf26964af9d7eed9e03e53415d37aa96045", false],
    ["0xg8da6bf26964af9d7eed9e03e53415d37aa96045", false],
    [" 0xd8da6bf26964af9d7eed9e03e53415d37aa96045", false],
  ])("%s -> %s", (value, expected) => {
    expect(addressPattern.test(value)).toBe(expected);
  });

  it("accepts exactly what viem's non-strict isAddress accepts", () => {
    for (const value of [
      "0x0000000000000000000000000000000000000000",
      "0xdeadbeefdeadbeefdeadbeefdeadbeefdeadbeef",
      "0x12",
      "0xzz00000000000000000000000000000000000000",
    ]) {
      expect(addressPattern.test(value)).toBe(isAddress(value, { strict: false }));
    }
  });

  it("finds an address inside text through its source", () => {
    const match = new RegExp(hexAddressSource).exec(
      "send to 0x000000000000000000000000000000000000dEaD now",
    );
    expect(match?.[0]).toBe("0x000000000000000000000000000000000000dEaD");
  });
});

describe("one address pattern", () => {
  // Every schema and parser imports the pattern; a copy written by hand is how they drift apart.
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        return ["node_modules", ".output", ".wxt"].includes(entry.name) ? [] : sources(path);
      }
      return /\.tsx?$/.test(entry.name) && !/\.(test|spec)\.tsx?$/.test(entry.name) ? [path] : [];
    });

  it("is written only in addressPattern.ts", () => {
    const copies = [
      "shared",
      "client/src",
      "devnet/src",
      "server/src",
      "snapshots/src",
      "extension/src",
    ]
      .flatMap((dir) => sources(join(root, dir)))
      .filter((file) => !file.endsWith(join("address", "addressPattern.ts")))
      // Test fakes (fakePaidApi, fakeRpc) stand in for a server; they are not our parsers.
      .filter((file) => !/[/\\]fake[A-Z]\w*\.ts$/.test(file))
      .filter((file) => /0x\[0-9a-fA-F\]\{40\}/.test(readFileSync(file, "utf8")))
      .map((file) => relative(root, file));
    expect(copies).toEqual([]);
  });
});
