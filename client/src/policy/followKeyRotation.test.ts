import {
  type AttestationKey,
  keyRotationStatementType,
} from "@presend/shared/attestation/attestationSchemas";
import { CompactSign, calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore, type PinRecord } from "../PinStore";
import type { ClientEvent } from "../PresendResult";
import { followKeyRotation } from "./followKeyRotation";

const now = new Date("2026-08-01T00:00:00Z");

async function makeKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const jwk = await exportJWK(publicKey);
  const key: AttestationKey = {
    kty: "EC",
    crv: "P-256",
    alg: "ES256",
    use: "sig",
    x: jwk.x ?? "",
    y: jwk.y ?? "",
    kid,
  };
  return { privateKey, key, thumbprint: await calculateJwkThumbprint(key, "sha256") };
}
type Key = Awaited<ReturnType<typeof makeKey>>;

/** The retiring key's statement, as the server's operator tool signs it. */
const statement = (by: Key, next: Key, since: string, signer: CryptoKey = by.privateKey) =>
  new CompactSign(
    new TextEncoder().encode(
      JSON.stringify({ next: next.thumbprint, nextKid: next.key.kid, since }),
    ),
  )
    .setProtectedHeader({ alg: "ES256", kid: by.key.kid, typ: keyRotationStatementType })
    .sign(signer);

const pinOf = (key: Key): PinRecord => ({
  jwk: key.key,
  fingerprint: key.thumbprint,
  pinnedAt: "2026-01-01T00:00:00.000Z",
  apiUrl: "http://api.test",
});

/** A client whose only server is a discovery document (or a status in its place). */
function clientWith(document: unknown, pin: PinRecord) {
  const events: ClientEvent[] = [];
  const pinStore = createMemoryPinStore({ "http://api.test": pin });
  const requested: string[] = [];
  const config = createPresendConfig({
    url: "http://api.test",
    pinStore,
    now: () => now,
    onEvent: (event) => events.push(event),
    fetch: async (input) => {
      requested.push(String(input));
      return typeof document === "number"
        ? new Response("no", { status: document })
        : Response.json(document);
    },
  });
  return { config, events, pinStore, requested };
}

describe("followKeyRotation", async () => {
  const k1 = await makeKey("presend-2026-01");
  const k2 = await makeKey("presend-2026-07");
  const k3 = await makeKey("presend-2027-01");
  const since2 = "2026-07-01T00:00:00.000Z";
  const since3 = "2027-01-01T00:00:00.000Z";
  const documentOf = (current: Key, previous: unknown[]) => ({
    attestation: { jws: "a.b.c", key: current.key, note: "" },
    previousAttestationKeys: previous,
    items: [],
  });

  it("moves the pin to the key the pinned key handed over to, keeping the old key until the hand-over", async () => {
    const document = documentOf(k2, [
      { key: k1.key, validUntil: since2, statement: await statement(k1, k2, since2) },
    ]);
    const { config, events, pinStore, requested } = clientWith(document, pinOf(k1));
    const followed = await followKeyRotation(config, pinOf(k1), { thumbprint: k2.thumbprint });
    const moved = {
      ...pinOf(k2),
      pinnedAt: now.toISOString(),
      previous: [{ jwk: k1.key, fingerprint: k1.thumbprint, until: since2 }],
    };
    expect(followed).toEqual({ type: "followed", pin: moved });
    expect(await pinStore.get("http://api.test")).toEqual(moved);
    expect(requested).toEqual(["http://api.test/.well-known/x402"]);
    expect(events).toEqual([
      {
        type: "key_followed",
        origin: "http://api.test",
        from: k1.key.kid,
        kid: k2.key.kid,
        fingerprint: k2.thumbprint,
      },
    ]);
  });

  it("walks several rotations, statement by statement, to the key named by kid", async () => {
    const document = documentOf(k3, [
      { key: k1.key, validUntil: since2, statement: await statement(k1, k2, since2) },
      { key: k2.key, validUntil: since3, statement: await statement(k2, k3, since3) },
    ]);
    const { config } = clientWith(document, pinOf(k1));
    const followed = await followKeyRotation(config, pinOf(k1), { kid: k3.key.kid });
    expect(followed).toMatchObject({
      type: "followed",
      pin: {
        fingerprint: k3.thumbprint,
        previous: [
          { fingerprint: k1.thumbprint, until: since2 },
          { fingerprint: k2.thumbprint, until: since3 },
        ],
      },
    });
  });

  it.each([
    [
      "no statement",
      async () => [{ key: k1.key, validUntil: since2 }],
      /no statement by presend-2026-01/,
    ],
    [
      "a statement signed by another key under the pinned kid",
      async () => [
        {
          key: k1.key,
          validUntil: since2,
          statement: await statement(k1, k2, since2, k3.privateKey),
        },
      ],
      /not signed by key presend-2026-01/,
    ],
    [
      "a statement for a key the document does not carry",
      async () => [{ key: k1.key, validUntil: since2, statement: await statement(k1, k3, since2) }],
      /hands over to a key the document does not carry/,
    ],
  ])("refuses a rotation with %s, the pin unchanged", async (_name, previous, message) => {
    const { config, events, pinStore } = clientWith(documentOf(k2, await previous()), pinOf(k1));
    const followed = await followKeyRotation(config, pinOf(k1), { thumbprint: k2.thumbprint });
    expect(followed).toMatchObject({ type: "refused", message });
    expect(await pinStore.get("http://api.test")).toEqual(pinOf(k1));
    expect(events).toEqual([]);
  });

  it("refuses when the statements stop short of the key met, or the document cannot be had", async () => {
    const document = documentOf(k3, [
      { key: k1.key, validUntil: since2, statement: await statement(k1, k2, since2) },
      { key: k2.key, validUntil: since3 },
    ]);
    const short = clientWith(document, pinOf(k1));
    expect(
      await followKeyRotation(short.config, pinOf(k1), { thumbprint: k3.thumbprint }),
    ).toMatchObject({ type: "refused", message: /no statement by presend-2026-07/ });
    const down = clientWith(503, pinOf(k1));
    expect(
      await followKeyRotation(down.config, pinOf(k1), { thumbprint: k2.thumbprint }),
    ).toMatchObject({ type: "refused", message: /answered 503/ });
    const garbled = clientWith({ attestation: "none" }, pinOf(k1));
    expect(
      await followKeyRotation(garbled.config, pinOf(k1), { thumbprint: k2.thumbprint }),
    ).toMatchObject({ type: "refused", message: /no readable keys/ });
  });

  it("leaves a pin another call moved meanwhile as it is", async () => {
    const document = documentOf(k2, [
      { key: k1.key, validUntil: since2, statement: await statement(k1, k2, since2) },
    ]);
    const { config, pinStore } = clientWith(document, pinOf(k3));
    const followed = await followKeyRotation(config, pinOf(k1), { thumbprint: k2.thumbprint });
    expect(followed).toMatchObject({ type: "followed", pin: { fingerprint: k2.thumbprint } });
    expect(await pinStore.get("http://api.test")).toEqual(pinOf(k3));
  });
});
