import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { type PinRecord, PinRecordSchema, type PinStore } from "@presend/client";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { z } from "zod";
import { fileLock } from "./fileLock";

const PinsFileSchema = z.object({
  version: z.literal(2),
  servers: z.record(z.string(), PinRecordSchema),
});

/**
 * $XDG_CONFIG_HOME/presend (or ~/.config/presend): where the CLI keeps what it trusts. A relative
 * XDG_CONFIG_HOME or HOME is ignored, as the XDG spec says: relative, the directory would change
 * with the working directory, each one another pins file (a key trusted anew on first use) and
 * another day's spend ledger (the daily cap counted apart). With neither, the account's home
 * (`passwdHome`, the password database's); a user without one (a container run as a bare UID
 * with HOME unset) is a ConfigurationError naming the settings, never a crash.
 */
export function configDir(
  env: Record<string, string | undefined>,
  passwdHome: () => string = () => userInfo().homedir,
): string {
  const usable = (path: string | undefined) => (path && isAbsolute(path) ? path : undefined);
  const xdg = usable(env.XDG_CONFIG_HOME);
  if (xdg) return join(xdg, "presend");
  let home = usable(env.HOME);
  if (!home) {
    try {
      home = usable(passwdHome());
    } catch {}
  }
  if (!home) {
    throw new ConfigurationError(
      "no config directory: set XDG_CONFIG_HOME (or HOME) to an absolute path; presend keeps its pinned keys and spend ledger in $XDG_CONFIG_HOME/presend",
    );
  }
  return join(home, ".config", "presend");
}

/**
 * The attestation keys the CLI and the MCP server pinned on first use, one per server origin
 * (pins.json, the client's pin record format). A file that does not parse is an error, never
 * silently "no pins": that would re-trust any key. Runs started at once add their pins one at a
 * time under a lock beside the file (pins.json.lock), each reading what the last one wrote: a pin
 * lost to another run's write would be trusted again on first use.
 * @example const pins = openPinStore(join(configDir(process.env), "pins.json"));
 */
export function openPinStore(file: string): PinStore & { file: string } {
  const read = () => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return { version: 2 as const, servers: {} as Record<string, PinRecord> };
      throw error;
    }
    const parsed = PinsFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) {
      throw new ConfigurationError(
        `${file} is not a presend pins file (version 2); check the keys it holds, then fix or remove it`,
        { code: "invalid_pins_file" },
      );
    }
    return parsed.data;
  };
  const lock = fileLock(`${file}.lock`);
  return {
    file,
    // A read needs no lock: the file is only ever replaced whole.
    get: async (origin) => read().servers[origin],
    async set(origin, pin) {
      const record = PinRecordSchema.parse(pin);
      await lock.hold(async () => {
        const pins = read();
        pins.servers[origin] = record;
        mkdirSync(dirname(file), { recursive: true });
        // Write then rename: a crash never leaves half a pins file.
        const temp = `${file}.${process.pid}.tmp`;
        writeFileSync(temp, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
        renameSync(temp, file);
      });
    },
  };
}
