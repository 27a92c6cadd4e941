import { calculateJwkThumbprint, compactVerify, importJWK } from "jose";
import {
  type AttestationBlock,
  AttestationBlockSchema,
  type AttestationPayload,
  AttestationPayloadSchema,
} from "./attestationSchemas";

export type AttestationCheck = {
  /** The block found in the 402 (or the discovery document); unknown until parsed. */
  block: unknown;
  /** The route being paid for, e.g. "/check". */
  route: string;
  /** payTo of the payment requirements the client is about to sign. */
  payTo: string;
  /** Amount (base units) of those requirements. */
  amount: string;
  /** CAIP-2 network of those requirements; compared when the attestation binds one. */
  network?: string;
  /** Asset (token contract) of those requirements; compared when the attestation binds one. */
  asset?: string;
  /** Thumbprint of the key pinned for this server, when one is pinned. */
  pinnedThumbprint?: string;
  /** Seconds since epoch; defaults to the clock. */
  now?: number;
};

export type AttestationFailure =
  | "malformed"
  | "bad_signature"
  | "key_changed"
  | "expired"
  | "not_yet_valid"
  | "payto_mismatch"
  | "network_mismatch"
  | "asset_mismatch"
  | "unknown_route"
  | "price_above_attested";

export type AttestationResult =
  | {
      type: "valid";
      payload: AttestationPayload;
      block: AttestationBlock;
      /** RFC 7638 thumbprint of the key: what a client pins. */
      thumbprint: string;
    }
  | { type: "invalid"; reason: AttestationFailure; message: string; thumbprint?: string };

// Clocks drift; a minute of leeway keeps a freshly re-signed attestation usable everywhere.
const clockLeewaySeconds = 60;

/**
 * Verifies a payee attestation and that the requirements about to be paid match it.
 * Fails closed: anything unparseable, unsigned, expired or different is "invalid".
 * @example const r = await verifyAttestation({ block, route: "/check", payTo, amount: "10000" });
 */
export async function verifyAttestation(check: AttestationCheck): Promise<AttestationResult> {
  const parsed = AttestationBlockSchema.safeParse(check.block);
  if (!parsed.success) {
    return { type: "invalid", reason: "malformed", message: "The attestation block is malformed." };
  }
  const block = parsed.data;
  const thumbprint = await calculateJwkThumbprint(block.key, "sha256");
  if (check.pinnedThumbprint !== undefined && check.pinnedThumbprint !== thumbprint) {
    return {
      type: "invalid",
      reason: "key_changed",
      thumbprint,
      message: `The server's attestation key changed (pinned ${check.pinnedThumbprint}, now ${thumbprint} with kid ${block.key.kid}). Someone may be impersonating the payee; verify the new key out of band before trusting it.`,
    };
  }
  let payload: AttestationPayload;
  try {
    const key = await importJWK(block.key, "ES256");
    const verified = await compactVerify(block.jws, key, { algorithms: ["ES256"] });
    const claims = AttestationPayloadSchema.safeParse(
      JSON.parse(new TextDecoder().decode(verified.payload)),
    );
    if (!claims.success) {
      return {
        type: "invalid",
        reason: "malformed",
        thumbprint,
        message: "The attestation payload lacks payTo, maxPrice, iat or exp.",
      };
    }
    payload = claims.data;
  } catch (cause) {
    return {
      type: "invalid",
      reason: "bad_signature",
      thumbprint,
      message: `The attestation signature does not verify with its key: ${cause instanceof Error ? cause.message : String(cause)}`,
    };
  }
  const now = check.now ?? Math.floor(Date.now() / 1000);
  if (payload.exp + clockLeewaySeconds < now) {
    return {
      type: "invalid",
      reason: "expired",
      thumbprint,
      message: `The attestation expired at ${new Date(payload.exp * 1000).toISOString()}.`,
    };
  }
  if (payload.iat - clockLeewaySeconds > now) {
    return {
      type: "invalid",
      reason: "not_yet_valid",
      thumbprint,
      message: `The attestation is issued in the future (${new Date(payload.iat * 1000).toISOString()}).`,
    };
  }
  if (payload.payTo.toLowerCase() !== check.payTo.toLowerCase()) {
    return {
      type: "invalid",
      reason: "payto_mismatch",
      thumbprint,
      message: `The challenge asks to pay ${check.payTo}, but the attested payee is ${payload.payTo}.`,
    };
  }
  if (
    payload.network !== undefined &&
    check.network !== undefined &&
    payload.network !== check.network
  ) {
    return {
      type: "invalid",
      reason: "network_mismatch",
      thumbprint,
      message: `The challenge asks for payment on ${check.network}, but the attested network is ${payload.network}.`,
    };
  }
  if (
    payload.asset !== undefined &&
    check.asset !== undefined &&
    payload.asset.toLowerCase() !== check.asset.toLowerCase()
  ) {
    return {
      type: "invalid",
      reason: "asset_mismatch",
      thumbprint,
      message: `The challenge asks for payment in ${check.asset}, but the attested asset is ${payload.asset}.`,
    };
  }
  const maxPrice = payload.maxPrice[check.route];
  if (maxPrice === undefined) {
    return {
      type: "invalid",
      reason: "unknown_route",
      thumbprint,
      message: `The attestation names no price for ${check.route}.`,
    };
  }
  if (!/^\d+$/.test(check.amount) || BigInt(check.amount) > BigInt(maxPrice)) {
    return {
      type: "invalid",
      reason: "price_above_attested",
      thumbprint,
      message: `The challenge asks ${check.amount} base units for ${check.route}, above the attested ${maxPrice}.`,
    };
  }
  return { type: "valid", payload, block, thumbprint };
}
