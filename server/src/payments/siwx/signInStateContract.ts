import { describe, expect, it } from "vitest";
import type { SignInState } from "./createSignInState";

const request = {
  payer: "0xAbC0000000000000000000000000000000000001",
  route: "/check",
  address: "0xD8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
  chain: "base",
  from: "",
};
const payment = { payer: request.payer, nonce: `0x${"11".repeat(32)}` };

/**
 * The behaviour every SignInState must have; an implementation's test calls this with a factory
 * that opens two views of one state (two replicas of a fleet, or the same process twice).
 * `advance` moves the implementation's clock (or waits) by the given milliseconds.
 * @example describeSignInState("memory", async () => ({ states: [s, s], advance, close }));
 */
export function describeSignInState(
  name: string,
  open: () => Promise<{
    states: [SignInState, SignInState];
    now: () => number;
    advance: (ms: number) => Promise<void>;
    close: () => Promise<void>;
  }>,
): void {
  describe(`SignInState contract: ${name}`, () => {
    const withState = async (run: (opened: Awaited<ReturnType<typeof open>>) => Promise<void>) => {
      const opened = await open();
      try {
        await run(opened);
      } finally {
        await opened.close();
      }
    };

    it("finds a paid request by payer, route, address, sender (any case) and chain, from either view", () =>
      withState(async ({ states: [a, b] }) => {
        await a.rememberPaid(request, payment);
        expect(
          await b.recentPayment({
            ...request,
            payer: request.payer.toLowerCase(),
            address: request.address.toLowerCase(),
          }),
        ).toEqual(payment);
        expect(await b.recentPayment({ ...request, chain: "ethereum" })).toBeUndefined();
        expect(await b.recentPayment({ ...request, route: "/deep" })).toBeUndefined();
        // A check without a sender does not answer one that names one, nor the other way round.
        const sender = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";
        expect(await b.recentPayment({ ...request, from: sender })).toBeUndefined();
        await a.rememberPaid({ ...request, from: sender }, payment);
        expect(await b.recentPayment({ ...request, from: sender.toLowerCase() })).toEqual(payment);
        const otherPayer = "0xAbC0000000000000000000000000000000000002";
        expect(await a.recentPayment({ ...request, payer: otherPayer })).toBeUndefined();
      }));

    it("takes a nonce once across views, and only the first of concurrent takes wins", () =>
      withState(async ({ states: [a, b], now }) => {
        const expiresAt = now() + 60_000;
        expect(await b.nonceUsed("n1")).toBe(false);
        expect(await a.useNonce("n1", expiresAt)).toBe(true);
        expect(await b.nonceUsed("n1")).toBe(true);
        expect(await b.useNonce("n1", expiresAt)).toBe(false);
        const wins = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).useNonce("n2", expiresAt)),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
      }));

    it("forgets a nonce once its message can no longer be valid", () =>
      withState(async ({ states: [a, b], now, advance }) => {
        expect(await a.useNonce("short", now() + 1_000)).toBe(true);
        expect(await b.nonceUsed("short")).toBe(true);
        await advance(1_300);
        expect(await b.nonceUsed("short")).toBe(false);
      }));
  });
}
