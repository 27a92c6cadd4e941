import { describe, expect, it } from "vitest";
import { createSignInState, rereadWindowSeconds } from "./createSignInState";
import { describeSignInState } from "./signInStateContract";

describeSignInState("memory", async () => {
  let now = 1_000_000;
  const state = createSignInState(() => now);
  return {
    states: [state, state],
    now: () => now,
    advance: async (ms) => {
      now += ms;
    },
    close: async () => {},
  };
});

describe("createSignInState", () => {
  it("forgets a paid request after the re-read window", async () => {
    let now = 1_000_000;
    const state = createSignInState(() => now);
    const request = { payer: "0xa", route: "/check", address: "0xb", chain: "base", from: "" };
    await state.rememberPaid(request, { payer: "0xa", nonce: "0x1" });
    now += rereadWindowSeconds * 1000;
    expect(await state.recentPayment(request)).toEqual({ payer: "0xa", nonce: "0x1" });
    now += 1;
    expect(await state.recentPayment(request)).toBeUndefined();
  });
});
