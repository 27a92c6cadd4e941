import { parseArgs } from "node:util";
import { rotateAttestationKey } from "../payments/attestation/rotateAttestationKey";

export type RotateKeyDeps = {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  now?: () => Date;
};

export const rotateKeyUsage = `usage: presend rotate-attestation-key --out <new key file> [--key <current key file>] [--previous-keys <file>] [--at <ISO time>] [--kid presend-YYYY-MM]

Writes a new ES256 attestation key to --out and adds the current key (--key, default
ATTESTATION_KEY_FILE) to the previous keys file (--previous-keys, default
ATTESTATION_PREVIOUS_KEYS_FILE) with its rotation statement: its signature over the new key,
taking over at --at (default now: give the time the new replicas start). Clients that pinned the
current key follow the statement to the new one.`;

/**
 * `presend rotate-attestation-key`: prepares an attestation key rotation on the operator's
 * machine (the current private key signs the statement, so it runs where that key is).
 * @example process.exitCode = await runRotateKeyCommand(argv.slice(1), { env, stdout, stderr });
 */
export async function runRotateKeyCommand(
  argv: readonly string[],
  deps: RotateKeyDeps,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        out: { type: "string" },
        key: { type: "string" },
        "previous-keys": { type: "string" },
        at: { type: "string" },
        kid: { type: "string" },
        help: { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    deps.stderr(`presend: ${(error as Error).message}\n\n${rotateKeyUsage}`);
    return 2;
  }
  if (values.help) {
    deps.stdout(rotateKeyUsage);
    return 0;
  }
  const text = (name: string) => {
    const value = values[name];
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  const keyFile = text("key") ?? deps.env.ATTESTATION_KEY_FILE;
  const previousKeysFile = text("previous-keys") ?? deps.env.ATTESTATION_PREVIOUS_KEYS_FILE;
  const outFile = text("out");
  const atText = text("at");
  const at = atText === undefined ? (deps.now ?? (() => new Date()))() : new Date(atText);
  const missing = [
    outFile === undefined && "--out",
    keyFile === undefined && "--key (or ATTESTATION_KEY_FILE)",
    previousKeysFile === undefined && "--previous-keys (or ATTESTATION_PREVIOUS_KEYS_FILE)",
  ].filter(Boolean);
  if (missing.length > 0 || Number.isNaN(at.getTime())) {
    const problem =
      missing.length > 0 ? `missing ${missing.join(", ")}` : `--at ${atText} is not a time`;
    deps.stderr(`presend: ${problem}\n\n${rotateKeyUsage}`);
    return 2;
  }
  try {
    const kid = text("kid");
    const rotated = await rotateAttestationKey({
      keyFile: keyFile as string,
      outFile: outFile as string,
      previousKeysFile: previousKeysFile as string,
      at,
      ...(kid !== undefined && { kid }),
    });
    deps.stdout(
      [
        `new attestation key ${rotated.next.kid} (thumbprint ${rotated.thumbprint}) written to ${outFile}`,
        `${rotated.retired.key.kid} listed in ${previousKeysFile}, valid until ${rotated.retired.validUntil}, with its statement for ${rotated.next.kid}`,
        `next: give every replica ATTESTATION_KEY_FILE=${outFile} and ATTESTATION_PREVIOUS_KEYS_FILE=${previousKeysFile}, stop the old replicas, start the new ones; announce the new thumbprint`,
      ].join("\n"),
    );
    return 0;
  } catch (error) {
    deps.stderr(`presend: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
