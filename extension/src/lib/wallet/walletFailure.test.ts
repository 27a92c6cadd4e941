import { InternalRpcError, MethodNotFoundRpcError, UnauthorizedProviderError } from "viem";
import { describe, expect, it } from "vitest";
import { walletFailure } from "./walletFailure";

describe("walletFailure", () => {
  it("keeps the wallet's own words that viem wraps under a generic first line", () => {
    const ledger = Object.assign(new Error("Ledger device: UNKNOWN_ERROR (0x6a80)"), {
      code: -32603,
    });
    const wrapped = new Error("Signing failed.", { cause: new InternalRpcError(ledger) });
    expect(walletFailure(wrapped)).toEqual({
      code: "wallet_error",
      message: "Ledger device: UNKNOWN_ERROR (0x6a80)",
    });
  });

  it("tells an unauthorized request, a method the wallet lacks and a request already open apart", () => {
    const unauthorized = new UnauthorizedProviderError(
      Object.assign(new Error("Not authorized."), { code: 4100 }),
    );
    expect(walletFailure(unauthorized)?.code).toBe("wallet_unauthorized");
    expect(walletFailure(new MethodNotFoundRpcError(new Error("no such method")))?.code).toBe(
      "wallet_unsupported",
    );
    expect(walletFailure({ code: 4200, message: "Method not supported" })?.code).toBe(
      "wallet_unsupported",
    );
    expect(
      walletFailure({ code: -32002, message: "Already processing eth_requestAccounts." }),
    ).toEqual({ code: "wallet_busy", message: "Already processing eth_requestAccounts." });
  });

  it("shows the wallet's words as one short printable line", () => {
    const noisy = { code: -32603, message: `bad\u202e ${"x".repeat(400)}\nsecond line` };
    const { message } = walletFailure(noisy) ?? { message: "" };
    expect(message.length).toBeLessThanOrEqual(160);
    expect(message).not.toMatch(/[\u202e\n]/);
  });

  it("is null for an error without a wallet's code", () => {
    expect(walletFailure(new Error("The wallet bridge did not start."))).toBeNull();
    expect(walletFailure({ code: "no_wallet" })).toBeNull();
  });
});
