import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

describe("openPinStore", () => {
  it("keeps one pin per origin across opens, private to the owner", () => {
    const path = file();
    const pin = { thumbprint: "abc", kid: "presend-2026-11", pinnedAt: "2026-11-21T00:00:00.000Z" };
    openPinStore(path).set("http://127.0.0.1:8402", pin);
    openPinStore(path).set("https://presend.example", { ...pin, thumbprint: "def" });
    const again = openPinStore(path);
    expect(again.get("http://127.0.0.1:8402")).toEqual(pin);
    expect(again.get("https://presend.example")?.thumbprint).toBe("def");
    expect(again.get("https://other.example")).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("fails closed on a corrupted pins file instead of trusting any key again", () => {
    const path = file();
    openPinStore(path).set("http://a", { thumbprint: "x", kid: "presend-2026-01", pinnedAt: "t" });
    writeFileSync(path, JSON.stringify({ servers: "nope" }));
    expect(() => openPinStore(path).get("http://a")).toThrow(/not a presend pins file/);
  });

  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/x" })).toBe("/x/presend");
    expect(configDir({ HOME: "/home/u" })).toBe("/home/u/.config/presend");
  });
});
