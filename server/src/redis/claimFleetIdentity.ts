import type { Redis } from "ioredis";
import type { Readiness } from "../observability/registerOpsRoutes";

/** What every replica of one fleet must agree on: clients pin the key and check payTo. */
export type FleetIdentity = {
  /** The attestation key's id and its RFC 7638 thumbprint. */
  kid: string;
  thumbprint: string;
  payTo: string;
};

// Takes the key when free, extends it when it holds ours, and answers what it holds.
const claimScript = `local held = redis.call("GET", KEYS[1])
if not held then redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2]) return ARGV[1] end
if held == ARGV[1] then redis.call("PEXPIRE", KEYS[1], ARGV[2]) end
return held`;

/** How long the fleet's identity outlives its last replica; each replica renews it a third as often. */
const identityTtlMs = 30_000;

export type FleetIdentityClaim = {
  /** Unready while another identity holds the fleet (a replica with another key or payTo). */
  readiness: () => Readiness;
  stop: () => void;
};

/** Thrown at start when the fleet already runs with another attestation key or payTo. */
export class FleetIdentityMismatch extends Error {
  override name = "FleetIdentityMismatch";
}

/**
 * Writes this replica's attestation key and payTo to the shared store, or finds the fleet's: a
 * replica started with another key or payTo (an operator's slip) refuses to start, because every
 * client paying through the proxy would be refused when its 402 and its payment reach replicas
 * that disagree. Renewed while running; a disagreement found later (the store was emptied and
 * another replica claimed it) makes this replica unready. A rotation restarts every replica: the
 * old identity expires 30 s after the last replica holding it stopped. With the store down at
 * start nothing is decided (readiness reports the store).
 * @example const claim = await claimFleetIdentity(redis, { kid, thumbprint, payTo });
 */
export async function claimFleetIdentity(
  redis: Redis,
  identity: FleetIdentity,
  key = "presend:fleet:identity",
): Promise<FleetIdentityClaim> {
  const mine = `${identity.kid} ${identity.thumbprint} ${identity.payTo.toLowerCase()}`;
  const claim = async () =>
    String(await redis.eval(claimScript, 1, key, mine, String(identityTtlMs)));
  let held: string | null = await claim().catch(() => null);
  if (held !== null && held !== mine) throw new FleetIdentityMismatch(describeMismatch(held));
  const timer = setInterval(() => {
    claim().then(
      (answer) => {
        held = answer;
      },
      () => {},
    );
  }, identityTtlMs / 3);
  timer.unref();
  return {
    readiness: () =>
      held === null || held === mine
        ? { ready: true }
        : { ready: false, reason: describeMismatch(held) },
    stop: () => clearInterval(timer),
  };
}

function describeMismatch(held: string): string {
  const [kid, , payTo] = held.split(" ");
  return `another replica of this fleet runs with attestation key ${kid} and payTo ${payTo}; every replica must use the same ATTESTATION_KEY_FILE and PAY_TO (to rotate, stop the old replicas first)`;
}
