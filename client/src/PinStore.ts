import { AttestationKeySchema } from "@presend/shared/attestation/attestationSchemas";
import { z } from "zod";

/**
 * One pinned attestation key: trusted on first use for one API origin. The same record in the
 * CLI's pins.json, the MCP server and the extension's storage.
 */
export const PinRecordSchema = z.object({
  jwk: AttestationKeySchema,
  /** RFC 7638 thumbprint of jwk, shown to people so a key change is recognisable. */
  fingerprint: z.string(),
  pinnedAt: z.string(),
  /** The API origin the key was first seen at. */
  apiUrl: z.string(),
  /**
   * Keys this pin replaced, oldest first, each followed by its own rotation statement, and the
   * time the next one took over: a report paid before then, fetched again, is verified with it.
   */
  previous: z
    .array(
      z.object({
        jwk: AttestationKeySchema,
        fingerprint: z.string(),
        until: z.iso.datetime({ offset: true }),
      }),
    )
    .optional(),
});
export type PinRecord = z.infer<typeof PinRecordSchema>;

/**
 * Where a client keeps the keys it trusts, by API origin. A store that cannot be read must
 * throw, never answer "nothing pinned": that would re-trust any key.
 */
export type PinStore = {
  get(origin: string): Promise<PinRecord | undefined>;
  set(origin: string, pin: PinRecord): Promise<void>;
};

/**
 * A pin store in memory: for one MCP session, tests, or a caller that keeps its own.
 * @example const pins = createMemoryPinStore();
 */
export function createMemoryPinStore(initial: Record<string, PinRecord> = {}): PinStore {
  const pins = new Map(Object.entries(initial));
  return {
    get: async (origin) => pins.get(origin),
    set: async (origin, pin) => {
      pins.set(origin, PinRecordSchema.parse(pin));
    },
  };
}
