import { decodePaymentRequiredHeader } from "@x402/core/http";
import { describe, expect, it } from "vitest";
import { paidOnce } from "../testing/paidOnce";
import { signedInReread } from "./signedInReread";

// The server's real sign-in re-read is proven against the paid stack (server tests of signIn);
// here, that a challenge without Sign-In-With-X leads on to the usual payment.
describe("signedInReread", () => {
  it("answers null, sending nothing, when the challenge offers no sign-in", async () => {
    const { config, pin, server } = await paidOnce();
    const challenge = await server.fetch("http://api.test/check", { method: "POST" });
    const paymentRequired = decodePaymentRequiredHeader(
      challenge.headers.get("payment-required") ?? "",
    );
    const requirement = paymentRequired.accepts[0];
    if (requirement === undefined) throw new Error("no requirement");
    let posted = 0;
    const again = await signedInReread(config, {
      route: "/check",
      asked: { address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045", chain: "base" },
      paymentRequired,
      requirement,
      pin,
      post: async () => {
        posted += 1;
        return new Response("{}");
      },
    });
    expect(again).toBeNull();
    expect(posted).toBe(0);
  });
});
