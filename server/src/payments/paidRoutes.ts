import { chainNames } from "@presend/shared/chains/chains";

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
};

const reportFields = ["address", "checksum", "chain", "verdict", "report", "checkedAt"];

/** The two paid routes with their fixed prices. */
export const paidRoutes: Record<PaidPath, PaidRoute> = {
  "/check": {
    path: "/check",
    amount: "10000",
    summary: "Single-chain pre-send check (USD 0.01)",
    description:
      "Pre-send safety check of an EVM address on one chain: EIP-55 checksum, wallet or contract, outgoing transactions, native/USDC/USDT balances, gas, and a leveled verdict with reasons and a next action. Price: USD 0.01 (10000 USDC base units on Base, x402 exact).",
    outputSchema: {
      type: "http",
      input: { method: "POST", bodyType: "json", body: requestBody },
      output: { fields: reportFields },
    },
  },
  "/deep": {
    path: "/deep",
    amount: "50000",
    summary: "Five-chain deep check (USD 0.05)",
    description:
      "Deep pre-send check across base, ethereum, arbitrum, optimism and polygon: everything /check reports for the target chain, plus the four other chains, wrong-network detection and token-mismatch flags. Price: USD 0.05 (50000 USDC base units on Base, x402 exact).",
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
