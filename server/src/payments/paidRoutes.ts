import { chainNames } from "@presend/shared/chains/chains";
import { priceInUsd } from "@presend/shared/pricing/priceInUsd";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { joinNames } from "@presend/shared/verdict/joinNames";

export type PaidPath = "/check" | "/deep";

export type PaidRoute = {
  path: PaidPath;
  /** Price in USDC base units (6 decimals). */
  amount: string;
  summary: string;
  description: string;
  /** The payment requirements' outputSchema: what to send and what comes back. */
  outputSchema: {
    type: "http";
    input: {
      method: "POST";
      bodyType: "json";
      body: Record<string, { type: string; required: boolean; description: string }>;
    };
    output: { fields: string[] };
  };
};

const requestBody = {
  address: {
    type: "string",
    required: true,
    description: "0x followed by 40 hex characters (EIP-55 checksum checked)",
  },
  chain: {
    type: "string",
    required: false,
    description: `one of ${chainNames.join(", ")}; default base`,
  },
  from: {
    type: "string",
    required: false,
    description: "optional sender: its payments reveal address poisoning",
  },
};

/**
 * The request every document shows (OpenAPI example, bazaar declaration, discovery metadata): a
 * correctly EIP-55-checksummed address, so a crawler that sends it unpaid gets the 402.
 */
export const exampleRequest = {
  address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  chain: "base",
} as const;

const reportFields = ["address", "checksum", "chain", "verdict", "report", "checkedAt"];

/** The two paid routes with their fixed prices. */
export const paidRoutes: Record<PaidPath, PaidRoute> = {
  "/check": {
    path: "/check",
    amount: routePrices.check.toString(),
    summary: `Single-chain pre-send check (USD ${priceInUsd("check")})`,
    description: `Pre-send safety check of an EVM address on one chain: EIP-55 checksum, wallet or contract, outgoing transactions, native/USDC/USDT balances, gas, and a leveled verdict with reasons and a next action. Price: USD ${priceInUsd("check")} (${routePrices.check} USDC base units on Base, x402 exact).`,
    outputSchema: {
      type: "http",
      input: { method: "POST", bodyType: "json", body: requestBody },
      output: { fields: reportFields },
    },
  },
  "/deep": {
    path: "/deep",
    amount: routePrices.deep.toString(),
    summary: `Five-chain deep check (USD ${priceInUsd("deep")})`,
    description: `Deep pre-send check across ${joinNames(chainNames)}: everything /check reports for the target chain, plus the four other chains, wrong-network detection and token-mismatch flags. Price: USD ${priceInUsd("deep")} (${routePrices.deep} USDC base units on Base, x402 exact).`,
    outputSchema: {
      type: "http",
      input: { method: "POST", bodyType: "json", body: requestBody },
      output: {
        fields: [...reportFields, "others", "verdict.tokenMismatch", "verdict.wrongNetwork"],
      },
    },
  },
};

/** Route path -> price, the attested maxPrice map. */
export function paidPrices(): Record<PaidPath, string> {
  return { "/check": paidRoutes["/check"].amount, "/deep": paidRoutes["/deep"].amount };
}
