import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { HTTPFacilitatorClient } from "@x402/core/server";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../facilitatorService/startFacilitatorService";
import type { FacilitatorAuth } from "../payments/facilitator/createFacilitatorClient";
import {
  type AuthCheckingFacilitator,
  type FacilitatorEndpoint,
  startAuthCheckingFacilitator,
} from "../payments/testing/startAuthCheckingFacilitator";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// Each hosted facilitator is stood in for by a loopback server that checks the Authorization
// header of every call the way its provider does, then forwards to `presend facilitator` (the
// project's own, settling on the local Base). A paid /check through it proves the header that
// presend's facilitator client sends, made by the provider's own package, is accepted.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);

/** CDP signs each JWT for one call: its method, its host and its path. */
const cdpHost = "api.cdp.coinbase.com";
const cdpPrefix = "/platform/v2/x402";
const cdpMethod: Record<FacilitatorEndpoint, string> = {
  verify: "POST",
  settle: "POST",
  supported: "GET",
};

async function bearerToken(authorization: string | null): Promise<string | null> {
  const match = /^Bearer (\S+)$/.exec(authorization ?? "");
  return match?.[1] ?? null;
}

type Provider = {
  name: string;
  prefix?: string;
  /** The credentials presend is configured with, and the checker that knows their public half. */
  credentials(): Promise<{
    auth: FacilitatorAuth;
    check: (header: string | null, endpoint: FacilitatorEndpoint) => Promise<string | null>;
  }>;
};

const providers: Provider[] = [
  {
    name: "@coinbase/x402 (Coinbase CDP facilitator, JWT per call from CDP_API_KEY_ID/SECRET)",
    prefix: cdpPrefix,
    async credentials() {
      const apiKeyId = "organizations/presend-test/apiKeys/interop";
      const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
      const apiKeySecret = await exportPKCS8(privateKey);
      return {
        auth: { type: "cdp", apiKeyId, apiKeySecret },
        async check(header, endpoint) {
          const token = await bearerToken(header);
          if (token === null) return "no bearer token";
          try {
            const { payload } = await jwtVerify(token, publicKey, { issuer: "cdp" });
            if (payload.sub !== apiKeyId) return "wrong key id";
            const uri = `${cdpMethod[endpoint]} ${cdpHost}${cdpPrefix}/${endpoint}`;
            if (!(payload.uris as string[] | undefined)?.includes(uri))
              return "JWT not for this call";
            return null;
          } catch {
            return "bad JWT";
          }
        },
      };
    },
  },
  {
    name: "@payai/facilitator (PayAI facilitator, JWT from PAYAI_API_KEY_ID/SECRET)",
    async credentials() {
      const apiKeyId = "payai-interop-key";
      const { privateKey, publicKey } = await generateKeyPair("EdDSA", {
        crv: "Ed25519",
        extractable: true,
      });
      // PayAI hands out the PKCS#8 DER key in base64, prefixed payai_sk_.
      const pem = await exportPKCS8(privateKey);
      const der = pem.replace(/-----[A-Z ]+-----|\s/g, "");
      return {
        auth: { type: "payai", apiKeyId, apiKeySecret: `payai_sk_${der}` },
        async check(header) {
          const token = await bearerToken(header);
          if (token === null) return "no bearer token";
          try {
            const { payload } = await jwtVerify(token, publicKey, { issuer: "payai-merchant" });
            return payload.sub === apiKeyId ? null : "wrong key id";
          } catch {
            return "bad JWT";
          }
        },
      };
    },
  },
  {
    name: "a shared bearer token (a self-hosted presend facilitator behind a secret)",
    async credentials() {
      const token = "interop-shared-secret-0123456789";
      return {
        auth: { type: "bearer", token },
        check: async (header) => ((await bearerToken(header)) === token ? null : "wrong token"),
      };
    },
  },
];

// The secret presend's own facilitator requires of whoever calls it (here: the stand-in).
const serviceToken = "the-stand-in-is-the-facilitator-service-only-caller";

describe("hosted facilitators through a loopback server that checks their auth", () => {
  let service: FacilitatorService;

  beforeAll(async () => {
    service = await startFacilitatorService({
      PORT: "0",
      FACILITATOR_PRIVATE_KEY: shared.world.accounts.facilitator.privateKey,
      RPC_URLS_BASE: shared.world.chains.base.rpcUrl,
      LOG_LEVEL: "silent",
      FACILITATOR_AUTH_TOKEN: serviceToken,
      // Its own journal: the default one (in the working directory) is shared by every test.
      FACILITATOR_JOURNAL_FILE: join(
        mkdtempSync(join(tmpdir(), "presend-journal-")),
        "journal.json",
      ),
    });
  });
  afterAll(() => service?.stop());

  describe.each(providers)("$name", (provider) => {
    let hosted: AuthCheckingFacilitator;
    let stack: PaidStack;
    let auth: FacilitatorAuth;

    beforeAll(async () => {
      const credentials = await provider.credentials();
      auth = credentials.auth;
      hosted = await startAuthCheckingFacilitator({
        forwardTo: service.url,
        forwardToken: serviceToken,
        check: credentials.check,
        ...(provider.prefix && { prefix: provider.prefix }),
      });
      stack = await startPaidStack({
        world: shared.world,
        facilitator: { url: hosted.facilitatorUrl, auth },
      });
    });
    afterAll(async () => {
      await stack?.stop();
      await hosted?.close();
    });

    it("authenticates /supported, /verify and /settle of a paid check; the payer gets the report", async () => {
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
      const pay = wrapFetchWithPayment(
        async (input: RequestInfo | URL, init?: RequestInit) =>
          stack.app.request(input instanceof Request ? input : new Request(input, init)),
        client,
      );
      const before = await stack.usdcBalance(payer.address);
      const response = await pay(`${stack.publicUrl}/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
      });
      expect(response.status).toBe(200);
      expect((await response.json()).verdict.level).toBeDefined();
      expect(await stack.usdcBalance(payer.address)).toBe(before - 10_000n);
      expect(hosted.calls.map((call) => call.endpoint)).toEqual(
        expect.arrayContaining(["supported", "verify", "settle"]),
      );
      expect(hosted.calls.filter((call) => call.refused !== null)).toEqual([]);
    });

    it("is refused by the checker without the credentials (the check is not a rubber stamp)", async () => {
      const anonymous = new HTTPFacilitatorClient({ url: hosted.facilitatorUrl });
      await expect(anonymous.getSupported()).rejects.toThrow();
      expect(hosted.calls.at(-1)).toMatchObject({
        endpoint: "supported",
        refused: expect.any(String),
      });
    });
  });
});
