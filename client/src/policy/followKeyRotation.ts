import {
  type AttestationKey,
  AttestationKeySchema,
  PreviousAttestationKeySchema,
} from "@presend/shared/attestation/attestationSchemas";
import { verifyKeyRotationStatement } from "@presend/shared/attestation/verifyKeyRotationStatement";
import { calculateJwkThumbprint } from "jose";
import { z } from "zod";
import type { PresendConfig } from "../createPresendConfig";
import { describeCause } from "../outcomes";
import type { PinRecord } from "../PinStore";

/** The key the client meets instead of its pinned one: by thumbprint (a 402) or kid (a report). */
export type RotationTarget = { thumbprint: string } | { kid: string };

export type FollowedRotation =
  | {
      type: "followed";
      /** The pin moved to the key reached, the keys passed on the way kept as previous. */
      pin: PinRecord;
    }
  | { type: "refused"; message: string };

// Only the parts of the discovery document a rotation needs; the rest is the server's to change.
const RotationDocumentSchema = z.object({
  attestation: z.object({ key: AttestationKeySchema }),
  previousAttestationKeys: z.array(PreviousAttestationKeySchema).default([]),
});

/**
 * Follows an attestation key rotation from the pinned key to `target`, trusting nothing but
 * signatures: the discovery document's previous keys are walked from the pinned one, each hop a
 * rotation statement verified with the key already trusted (the first with the pinned key itself),
 * until the target is reached. The pin then moves there, the keys passed kept as previous with
 * the time each handed over; anything missing or unverified is "refused", the pin unchanged.
 * @example const followed = await followKeyRotation(config, pin, { thumbprint });
 */
export async function followKeyRotation(
  config: PresendConfig,
  pin: PinRecord,
  target: RotationTarget,
): Promise<FollowedRotation> {
  const refuse = (why: string): FollowedRotation => ({
    type: "refused",
    message: `No rotation statement by the pinned key ${pin.jwk.kid} vouches for the new key: ${why}`,
  });
  let document: z.infer<typeof RotationDocumentSchema>;
  try {
    const answer = await config.send("/.well-known/x402", { method: "GET" });
    if (answer.status !== 200) return refuse(`the discovery document answered ${answer.status}.`);
    const parsed = RotationDocumentSchema.safeParse(await answer.json());
    if (!parsed.success) return refuse("the discovery document lists no readable keys.");
    document = parsed.data;
  } catch (cause) {
    return refuse(`the discovery document could not be read (${describeCause(cause)}).`);
  }
  const entries = await Promise.all(
    document.previousAttestationKeys.map(async (entry) => ({
      ...entry,
      thumbprint: await calculateJwkThumbprint(entry.key, "sha256"),
    })),
  );
  const keys = new Map<string, AttestationKey>();
  for (const entry of entries) keys.set(entry.thumbprint, entry.key);
  keys.set(
    await calculateJwkThumbprint(document.attestation.key, "sha256"),
    document.attestation.key,
  );

  let at = { jwk: pin.jwk, fingerprint: pin.fingerprint };
  const passed: NonNullable<PinRecord["previous"]> = [];
  const reached = (key: { jwk: AttestationKey; fingerprint: string }) =>
    "thumbprint" in target ? key.fingerprint === target.thumbprint : key.jwk.kid === target.kid;
  // Each hop leaves a key behind for good, so the walk ends within the list's length.
  for (let hop = 0; hop <= entries.length && !reached(at); hop++) {
    const entry = entries.find((candidate) => candidate.thumbprint === at.fingerprint);
    if (entry?.statement === undefined) {
      return refuse(`the discovery document carries no statement by ${at.jwk.kid}.`);
    }
    // Verified with the key already trusted, never with the document's copy of it.
    const statement = await verifyKeyRotationStatement(entry.statement, at.jwk);
    if (statement.type === "invalid") return refuse(statement.message);
    const next = keys.get(statement.claims.next);
    if (next === undefined || next.kid !== statement.claims.nextKid) {
      return refuse(`${at.jwk.kid} hands over to a key the document does not carry.`);
    }
    if (passed.some((key) => key.fingerprint === statement.claims.next)) {
      return refuse("the statements go round in a circle.");
    }
    passed.push({ ...at, until: statement.claims.since });
    at = { jwk: next, fingerprint: statement.claims.next };
  }
  if (!reached(at) || passed.length === 0) {
    return refuse("the statements do not lead to the key the server signs with.");
  }
  const moved: PinRecord = {
    ...pin,
    jwk: at.jwk,
    fingerprint: at.fingerprint,
    pinnedAt: config.now().toISOString(),
    previous: [...(pin.previous ?? []), ...passed],
  };
  // Another call may have followed meanwhile; only the pin this walk started from is replaced.
  const stored = await config.pinStore.get(config.origin);
  if (stored?.fingerprint === pin.fingerprint) {
    await config.pinStore.set(config.origin, moved);
    config.emit({
      type: "key_followed",
      origin: config.origin,
      from: pin.jwk.kid,
      kid: moved.jwk.kid,
      fingerprint: moved.fingerprint,
    });
  }
  return { type: "followed", pin: moved };
}
