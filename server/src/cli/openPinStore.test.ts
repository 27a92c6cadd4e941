import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PinRecord } from "@presend/client";
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
const pin: PinRecord = {
  jwk: {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    x: "Qwmv7pd5HQljkwIk5XalxT9ZkWvplHBitbONWVqwIks",
    y: "jlqdvHQ6xjp-JiNaqcz7iwyZeBXIMc1wdhoiSc12nlw",
    kid: "presend-2026-11",
  },
  fingerprint: "abc",
  pinnedAt: "2026-11-21T00:00:00.000Z",
  apiUrl: "http://127.0.0.1:8402",
};

describe("openPinStore", () => {
  it("keeps one pin per origin across opens, private to the owner", async () => {
    const path = file();
    await openPinStore(path).set("http://127.0.0.1:8402", pin);
    await openPinStore(path).set("https://presend.example", { ...pin, fingerprint: "def" });
    const again = openPinStore(path);
    expect(await again.get("http://127.0.0.1:8402")).toEqual(pin);
    expect((await again.get("https://presend.example"))?.fingerprint).toBe("def");
    expect(await again.get("https://other.example")).toBeUndefined();
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("fails closed on a corrupted or older pins file instead of trusting any key again", async () => {
    const path = file();
    await openPinStore(path).set("http://a", pin);
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
