import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PreviousAttestationKeySchema } from "@presend/shared/attestation/attestationSchemas";
import { calculateJwkThumbprint } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  loadAttestationKey,
  publicAttestationKey,
} from "../payments/attestation/loadAttestationKey";
import { runRotateKeyCommand } from "./runRotateKeyCommand";

const dir = mkdtempSync(join(tmpdir(), "presend-rotate-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t: string) => out.push(t), stderr: (t: string) => err.push(t) };
}

describe("presend rotate-attestation-key", () => {
  it("rotates the key named by the environment, printing the new thumbprint and what to do next", async () => {
    const current = await loadAttestationKey({ dataDir: dir, now: new Date("2026-01-05Z") });
    const env = {
      ATTESTATION_KEY_FILE: join(dir, "attestation-key.json"),
      ATTESTATION_PREVIOUS_KEYS_FILE: join(dir, "previous.json"),
    };
    const out = join(dir, "next.json");
    const streams = io();
    const code = await runRotateKeyCommand(["--out", out, "--at", "2026-07-01T00:00:00Z"], {
      env,
      ...streams,
    });
    expect(streams.err).toEqual([]);
    expect(code).toBe(0);
    const next = await loadAttestationKey({ file: out, dataDir: "" });
    const thumbprint = await calculateJwkThumbprint(publicAttestationKey(next), "sha256");
    const printed = streams.out.join("\n");
    expect(printed).toContain(`new attestation key presend-2026-07 (thumbprint ${thumbprint})`);
    expect(printed).toContain(
      `next: give every replica ATTESTATION_KEY_FILE=${out} and ATTESTATION_PREVIOUS_KEYS_FILE=${env.ATTESTATION_PREVIOUS_KEYS_FILE}`,
    );
    const previous = z
      .array(PreviousAttestationKeySchema)
      .parse(JSON.parse(readFileSync(env.ATTESTATION_PREVIOUS_KEYS_FILE, "utf8")));
    expect(previous).toMatchObject([
      { key: { kid: current.kid }, validUntil: "2026-07-01T00:00:00.000Z" },
    ]);
  });

  it("answers usage (exit 2) without --out, with a bad time or an unknown option, and 1 when the key cannot be read", async () => {
    for (const argv of [
      ["--key", "k.json", "--previous-keys", "p.json"],
      ["--out", "o.json", "--key", "k.json", "--previous-keys", "p.json", "--at", "soon"],
      ["--out", "o.json", "--key", "k.json", "--previous-keys", "p.json", "--force"],
    ]) {
      const streams = io();
      expect(await runRotateKeyCommand(argv, { env: {}, ...streams })).toBe(2);
      expect(streams.err.join("\n")).toMatch(/usage: presend rotate-attestation-key/);
    }
    // --key names the key to read even when ATTESTATION_KEY_FILE names one that can be.
    await loadAttestationKey({ dataDir: dir, now: new Date("2026-01-05Z") });
    const env = { ATTESTATION_KEY_FILE: join(dir, "attestation-key.json") };
    const streams = io();
    const argv = ["--out", join(dir, "o.json"), "--key", join(dir, "none.json")];
    expect(
      await runRotateKeyCommand([...argv, "--previous-keys", join(dir, "p.json")], {
        env,
        ...streams,
      }),
    ).toBe(1);
    expect(streams.err.join("\n")).toMatch(/none\.json/);
  });
});
