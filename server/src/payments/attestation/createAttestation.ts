import type { AttestationBlock } from "@presend/shared/attestation/attestationSchemas";
import { CompactSign, importJWK } from "jose";
import { type AttestationPrivateKey, publicAttestationKey } from "./loadAttestationKey";

export type CreateAttestationOptions = {
  key: AttestationPrivateKey;
  payTo: string;
  /** Base units per paid route path. */
  maxPrice: Record<string, string>;
  /** CAIP-2 network the payment is made on (eip155:8453). */
  network: string;
  /** The token paid in (Base USDC). */
  asset: string;
  /** How long one signature stays valid; re-signed well before it ends. */
  ttlSeconds?: number;
  /** Seconds since epoch; injectable for tests. */
  clock?: () => number;
};

export type Attestation = {
  /** The current block (jws, public key, note); re-signing happens in the background. */
  current(): AttestationBlock;
  /** Signs a fresh JWS now (also done at every start). */
  refresh(): Promise<AttestationBlock>;
};

const defaultTtlSeconds = 30 * 24 * 3600;

/**
 * Signs the payee attestation (payTo, per-route maxPrice, network, asset, iat, exp) with the ES256 key.
 * @example const attestation = await createAttestation({ key, payTo, maxPrice: { "/check": "10000" } });
 */
export async function createAttestation(options: CreateAttestationOptions): Promise<Attestation> {
  const clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  const ttl = options.ttlSeconds ?? defaultTtlSeconds;
  const signingKey = await importJWK(options.key, "ES256");
  const key = publicAttestationKey(options.key);
  const note = `presend signs its payTo, per-route maximum prices, network and asset with this ES256 key (kid ${key.kid}). Pin the key on first use; before paying, check that the 402's payTo equals the attested payTo, its network and asset equal the attested ones, and its amount is at most the attested maxPrice for the route.`;

  const sign = async (): Promise<{ block: AttestationBlock; iat: number }> => {
    const iat = clock();
    const payload = {
      payTo: options.payTo,
      maxPrice: options.maxPrice,
      network: options.network,
      asset: options.asset,
      iat,
      exp: iat + ttl,
    };
    const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
      .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "presend-attestation+jws" })
      .sign(signingKey);
    return { block: { jws, key, note }, iat };
  };

  let state = await sign();
  let refreshing: Promise<AttestationBlock> | null = null;
  const refresh = () => {
    refreshing ??= sign().then(
      (next) => {
        state = next;
        refreshing = null;
        return next.block;
      },
      (error: unknown) => {
        refreshing = null;
        throw error;
      },
    );
    return refreshing;
  };
  return {
    current() {
      // Past half its life the JWS is renewed in the background; the old one stays valid meanwhile.
      if (clock() - state.iat > ttl / 2) refresh().catch(() => {});
      return state.block;
    },
    refresh,
  };
}
