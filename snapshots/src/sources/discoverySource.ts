import type { DocShape } from "@presend/shared/api/snapshots/snapshotCommon";
import { z } from "zod";

/** One payTo address a service's live documents declare, with the network as written. */
export type DeclaredPayTo = {
  network: string;
  payTo: string;
  via: "well-known" | "openapi" | "challenge";
};

export type Discovery = {
  /** At least one live document (well-known, OpenAPI or a 402 challenge) answered and parsed. */
  reachable: boolean;
  docShape: DocShape;
  declared: DeclaredPayTo[];
};

/** Reads what a service publishes about how it is paid. */
export interface DiscoverySource {
  discover(baseUrl: string): Promise<Discovery>;
}

// x402 accepts entries, v1 ({network: "base", maxAmountRequired}) and v2 ({network: "eip155:8453",
// amount}); only the two fields measured here are required.
const AcceptSchema = z.looseObject({ network: z.string(), payTo: z.string() });

const WellKnownSchema = z.looseObject({
  items: z
    .array(z.looseObject({ resource: z.string(), accepts: z.array(z.unknown()).optional() }))
    .optional(),
  resources: z.array(z.string()).optional(),
  accepts: z.array(z.unknown()).optional(),
});

const PaymentRequiredSchema = z.looseObject({
  x402Version: z.number().optional(),
  accepts: z.array(z.unknown()),
});

function acceptsOf(entries: unknown[] | undefined): { network: string; payTo: string }[] {
  return (entries ?? []).flatMap((entry) => {
    const parsed = AcceptSchema.safeParse(entry);
    return parsed.success ? [{ network: parsed.data.network, payTo: parsed.data.payTo }] : [];
  });
}

// OpenAPI documents carry payment info in vendor extensions; both forms seen in the wild are read:
// `x-payment-info.protocols[].x402` and a bare `x402` object on the operation.
function openApiPayments(doc: unknown): {
  accepts: { network: string; payTo: string }[];
  paid: { method: string; url: string }[];
} {
  const parsed = z
    .looseObject({
      servers: z.array(z.looseObject({ url: z.string() })).optional(),
      paths: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
    })
    .safeParse(doc);
  if (!parsed.success) return { accepts: [], paid: [] };
  const server = parsed.data.servers?.[0]?.url ?? "";
  const accepts: { network: string; payTo: string }[] = [];
  const paid: { method: string; url: string }[] = [];
  for (const [path, operations] of Object.entries(parsed.data.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const op = z
        .looseObject({
          "x-payment-info": z
            .looseObject({ protocols: z.array(z.looseObject({ x402: z.unknown() })).optional() })
            .optional(),
          x402: z.unknown().optional(),
        })
        .safeParse(operation);
      if (!op.success) continue;
      const found = acceptsOf([
        ...(op.data["x-payment-info"]?.protocols ?? []).map((protocol) => protocol.x402),
        op.data.x402,
      ]);
      if (found.length > 0) {
        accepts.push(...found);
        paid.push({ method: method.toUpperCase(), url: `${server}${path}` });
      }
    }
  }
  return { accepts, paid };
}

function decodeBase64Json(value: string): unknown {
  try {
    return JSON.parse(Buffer.from(value, "base64").toString("utf8"));
  } catch {
    return undefined;
  }
}

export type HttpDiscoverySourceOptions = { fetch?: typeof fetch; timeoutMs?: number };

/**
 * Reads `/.well-known/x402`, `/openapi.json` and one unpaid request's 402 challenge of a service.
 * @example const found = await httpDiscoverySource().discover("https://weather.example");
 */
export function httpDiscoverySource(options: HttpDiscoverySourceOptions = {}): DiscoverySource {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  // A service that is down or refuses the connection is data (reachable: false), not an error.
  const tryFetch = async (url: string, init: RequestInit = {}) => {
    try {
      return await doFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch {
      return undefined;
    }
  };
  const tryJson = async (url: string): Promise<unknown> => {
    const response = await tryFetch(url, { headers: { accept: "application/json" } });
    if (!response?.ok) return undefined;
    return response.json().catch(() => undefined);
  };

  return {
    async discover(baseUrl) {
      const origin = baseUrl.replace(/\/+$/, "");
      const declared: DeclaredPayTo[] = [];
      let docShape: DocShape = "none";
      let reachable = false;
      const resources: { method: string; url: string }[] = [];

      const wellKnown = WellKnownSchema.safeParse(await tryJson(`${origin}/.well-known/x402`));
      if (wellKnown.success) {
        reachable = true;
        const items = wellKnown.data.items ?? [];
        const fromItems = acceptsOf(items.flatMap((item) => item.accepts ?? []));
        const fromTop = acceptsOf(wellKnown.data.accepts);
        for (const accept of [...fromItems, ...fromTop])
          declared.push({ ...accept, via: "well-known" });
        if (fromItems.length + fromTop.length > 0) docShape = "x402-v2-items";
        else if ((wellKnown.data.resources ?? []).length > 0) docShape = "x402-v1-resources";
        for (const item of items) resources.push({ method: "GET", url: item.resource });
        for (const url of wellKnown.data.resources ?? []) resources.push({ method: "GET", url });
      }

      const openApi = await tryJson(`${origin}/openapi.json`);
      if (openApi !== undefined) {
        const { accepts, paid } = openApiPayments(openApi);
        if (accepts.length > 0) {
          reachable = true;
          for (const accept of accepts) declared.push({ ...accept, via: "openapi" });
          if (docShape === "none") docShape = "openapi-payment-info";
          // The OpenAPI document knows the method; prefer it over the well-known guess.
          resources.unshift(...paid);
        }
      }

      const target = resources[0] ?? { method: "GET", url: `${origin}/` };
      const challenge = await tryFetch(target.url, {
        method: target.method,
        headers: { accept: "application/json", "content-type": "application/json" },
        ...(target.method === "GET" ? {} : { body: "{}" }),
      });
      if (challenge?.status === 402) {
        // v2 puts PaymentRequired in the PAYMENT-REQUIRED header (base64); v1 in the body.
        const header = challenge.headers.get("payment-required");
        const body = await challenge.json().catch(() => undefined);
        const required = PaymentRequiredSchema.safeParse(header ? decodeBase64Json(header) : body);
        const fallback = PaymentRequiredSchema.safeParse(body);
        const accepts = acceptsOf(
          required.success ? required.data.accepts : fallback.success ? fallback.data.accepts : [],
        );
        if (accepts.length > 0) {
          reachable = true;
          for (const accept of accepts) declared.push({ ...accept, via: "challenge" });
          if (docShape === "none") docShape = "challenge-only";
        }
      }
      return { reachable, docShape, declared };
    },
  };
}
