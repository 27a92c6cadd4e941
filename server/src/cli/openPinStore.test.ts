import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describePinStore, samplePin } from "@presend/client/testing";
import { afterEach, describe, expect, it } from "vitest";
import { configDir, openPinStore } from "./openPinStore";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const file = () => {
  const dir = mkdtempSync(join(tmpdir(), "presend-pins-"));
  dirs.push(dir);
  return join(dir, "presend", "pins.json");
};
describePinStore("pins.json", () => {
  const path = file();
  return { store: openPinStore(path), reopen: () => openPinStore(path) };
});

describe("openPinStore", () => {
  it("keeps the pins private to the owner", async () => {
    const path = file();
    await openPinStore(path).set("http://127.0.0.1:8402", samplePin);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("fails closed on a corrupted or older pins file instead of trusting any key again", async () => {
    const path = file();
    await openPinStore(path).set("http://a", samplePin);
    writeFileSync(path, JSON.stringify({ servers: "nope" }));
    await expect(openPinStore(path).get("http://a")).rejects.toThrow(/not a presend pins file/);
    writeFileSync(
      path,
      JSON.stringify({ version: 1, servers: { "http://a": { thumbprint: "x" } } }),
    );
    await expect(openPinStore(path).get("http://a")).rejects.toThrow(/not a presend pins file/);
  });

  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/x" })).toBe("/x/presend");
    expect(configDir({ HOME: "/home/u" })).toBe("/home/u/.config/presend");
  });
});
