/** The two paid routes, by the name the clients use (`/check` and `/deep` on the API). */
export type PricedRoute = "check" | "deep";

/**
 * The price of each paid route in USDC base units (6 decimals): USD 0.01 and USD 0.05. The server
 * charges these, attests them as each route's maxPrice and writes them into its texts; clients
 * show them before asking. A client still pays what the signed 402 says, never more than its cap.
 * @example routePrices.deep // 50000n
 */
export const routePrices: Readonly<Record<PricedRoute, bigint>> = { check: 10_000n, deep: 50_000n };
