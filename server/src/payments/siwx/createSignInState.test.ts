import { describe, expect, it } from "vitest";
import { createSignInState, rereadWindowSeconds } from "./createSignInState";

const request = {
  payer: "0xAbC0000000000000000000000000000000000001",
  route: "/check",
  address: "0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  chain: "base",
};
const payment = { payer: request.payer, nonce: `0x${"11".repeat(32)}` };

describe("createSignInState", () => {
  it("finds a paid request by payer, route, address (any case) and chain, only within the window", () => {
    let now = 1_000_000;
    const state = createSignInState(() => now);
    state.rememberPaid(request, payment);
    expect(
      state.recentPayment({
        ...request,
        payer: request.payer.toLowerCase(),
        address: request.address.toLowerCase(),
      }),
    ).toEqual(payment);
    expect(state.recentPayment({ ...request, chain: "ethereum" })).toBeUndefined();
    expect(state.recentPayment({ ...request, route: "/deep" })).toBeUndefined();
    now += rereadWindowSeconds * 1000 + 1;
    expect(state.recentPayment(request)).toBeUndefined();
  });

  it("takes a nonce once", () => {
    const state = createSignInState();
    expect(state.nonceUsed("n1")).toBe(false);
    expect(state.useNonce("n1")).toBe(true);
    expect(state.nonceUsed("n1")).toBe(true);
    expect(state.useNonce("n1")).toBe(false);
  });
});
