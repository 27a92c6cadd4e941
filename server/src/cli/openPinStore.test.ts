import { spawn } from "node:child_process";
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

  it("keeps every pin when processes sharing pins.json pin at the same time (none lost, so none re-trusted on first use)", async () => {
    const path = file();
    const processes = 4;
    const origins = 40;
    // Each process pins origins of its own, all started at once: a pin written between another
    // process's read and its write would be lost without a lock on the file.
    const pinning = (index: number) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            "--input-type=module",
            "-e",
            `import { tsImport } from "tsx/esm/api";
const { openPinStore } = await tsImport(${JSON.stringify(join(import.meta.dirname, "openPinStore.ts"))}, import.meta.url);
const pins = openPinStore(${JSON.stringify(path)});
const pin = ${JSON.stringify(samplePin)};
for (let j = 0; j < ${origins}; j++) await pins.set("http://p${index}-" + j + ".test", pin);`,
          ],
          { cwd: join(import.meta.dirname, "..", ".."), stdio: ["ignore", "inherit", "inherit"] },
        );
        child.once("error", reject);
        child.once("exit", resolve);
      });
    const exits = await Promise.all(
      Array.from({ length: processes }, (_, index) => pinning(index)),
    );
    expect(exits).toEqual(Array(processes).fill(0));
    const pins = openPinStore(path);
    const missing: string[] = [];
    for (let index = 0; index < processes; index++) {
      for (let j = 0; j < origins; j++) {
        const origin = `http://p${index}-${j}.test`;
        if ((await pins.get(origin)) === undefined) missing.push(origin);
      }
    }
    expect(missing).toEqual([]);
  }, 60_000);

  it("lives under XDG_CONFIG_HOME, else ~/.config", () => {
    expect(configDir({ XDG_CONFIG_HOME: "/x" })).toBe("/x/presend");
    expect(configDir({ HOME: "/home/u" })).toBe("/home/u/.config/presend");
  });

  it("ignores a relative XDG_CONFIG_HOME or HOME (one config directory whatever the working directory), and names the settings when no home is known", () => {
    const home = () => "/home/from-passwd";
    expect(configDir({ XDG_CONFIG_HOME: "cfg", HOME: "/home/u" }, home)).toBe(
      "/home/u/.config/presend",
    );
    expect(configDir({ XDG_CONFIG_HOME: "cfg", HOME: "." }, home)).toBe(
      "/home/from-passwd/.config/presend",
    );
    expect(configDir({}, home)).toBe("/home/from-passwd/.config/presend");
    // A container's bare UID: no HOME, no entry in the password database.
    const noEntry = () => {
      throw new Error("uv_os_get_passwd returned ENOENT");
    };
    expect(() => configDir({}, noEntry)).toThrow(
      "no config directory: set XDG_CONFIG_HOME (or HOME) to an absolute path",
    );
    expect(configDir({ XDG_CONFIG_HOME: "/x" }, noEntry)).toBe("/x/presend");
  });
});
