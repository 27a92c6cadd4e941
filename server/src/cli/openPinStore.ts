import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";

const PinSchema = z.object({ thumbprint: z.string(), kid: z.string(), pinnedAt: z.string() });
export type Pin = z.infer<typeof PinSchema>;
const PinsFileSchema = z.object({
  version: z.literal(1),
  servers: z.record(z.string(), PinSchema),
});

export type PinStore = {
  /** Where the pins live. */
  file: string;
  get(origin: string): Pin | undefined;
  set(origin: string, pin: Pin): void;
};

/** $XDG_CONFIG_HOME/presend (or ~/.config/presend): where the CLI keeps what it trusts. */
export function configDir(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config");
  return join(base, "presend");
}

/**
 * The attestation keys the CLI pinned on first use, one per server origin (pins.json).
 * A file that does not parse is an error, never silently "no pins": that would re-trust any key.
 * @example const pins = openPinStore(join(configDir(process.env), "pins.json"));
 */
export function openPinStore(file: string): PinStore {
  const read = () => {
    let text: string;
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return { version: 1 as const, servers: {} };
      throw error;
    }
    const parsed = PinsFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${file} is not a presend pins file; fix or remove it`);
    return parsed.data;
  };
  return {
    file,
    get: (origin) => read().servers[origin],
    set(origin, pin) {
      const pins = read();
      pins.servers[origin] = pin;
      mkdirSync(dirname(file), { recursive: true });
      // Write then rename: a crash never leaves half a pins file.
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(pins, null, 2)}\n`, { mode: 0o600 });
      renameSync(temp, file);
    },
  };
}
