import { describe, expect, it } from "vitest";
import { AttestationError } from "./AttestationError";
import { ConfigurationError } from "./ConfigurationError";
import { InputError } from "./InputError";
import { PaymentError } from "./PaymentError";
import { PresendError, walkCauses } from "./PresendError";
import { UpstreamError } from "./UpstreamError";

describe("PresendError", () => {
  it("keeps the code, the short message and the cause", () => {
    const cause = new Error("socket hang up");
    const error = new PresendError("chain_unreadable", "base could not be read", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("chain_unreadable");
    expect(error.shortMessage).toBe("base could not be read");
    expect(error.message).toBe("base could not be read");
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("PresendError");
  });

  it("never copies the cause's message into its own (it may quote a URL with a key)", () => {
    const cause = new TypeError("fetch failed: https://rpc.example/v2/SECRET-KEY");
    const error = new UpstreamError("network error (ECONNRESET)", { cause });
    expect(error.message).not.toContain("SECRET-KEY");
    expect(error.details).toBeUndefined();
  });

  it("appends meta messages and details after the short message", () => {
    const error = new ConfigurationError("PORT: 8402 is in use", {
      metaMessages: ["Stop the other server or set PORT=0."],
      details: "EADDRINUSE",
    });
    expect(error.message).toBe(
      "PORT: 8402 is in use\n\nStop the other server or set PORT=0.\nDetails: EADDRINUSE",
    );
    expect(error.shortMessage).toBe("PORT: 8402 is in use");
  });

  it("walks to the innermost cause, or to the first cause a predicate accepts", () => {
    const root = new Error("ECONNREFUSED");
    const upstream = new UpstreamError("base unreachable", { cause: root });
    const payment = new PaymentError("payment chain unusable", { cause: upstream });
    expect(payment.walk()).toBe(root);
    expect(payment.walk((e) => e instanceof UpstreamError)).toBe(upstream);
    expect(payment.walk((e) => e instanceof AttestationError)).toBeNull();
    expect(new InputError("bad").walk()).toBeInstanceOf(InputError);
  });

  it("walks causes of errors that are not PresendErrors, and survives a cycle", () => {
    const inner = new InputError("no");
    const outer = new Error("wrapped", { cause: inner });
    expect(walkCauses(outer, (e) => e instanceof InputError)).toBe(inner);
    expect(walkCauses("a string")).toBe("a string");
    const a: { cause?: unknown } = {};
    const b = { cause: a };
    a.cause = b;
    expect(walkCauses(a, () => false)).toBeNull();
  });
});

describe("domain errors", () => {
  it.each([
    [new InputError("x"), InputError, "invalid_input"],
    [new UpstreamError("x"), UpstreamError, "upstream_failed"],
    [new PaymentError("x"), PaymentError, "payment_failed"],
    [new ConfigurationError("x"), ConfigurationError, "invalid_configuration"],
    [new AttestationError("x"), AttestationError, "attestation_unusable"],
  ] as const)("%s is a PresendError with its default code", (error, kind, code) => {
    expect(error).toBeInstanceOf(PresendError);
    expect(error).toBeInstanceOf(kind);
    expect(error.code).toBe(code);
    expect(error.name).toBe(kind.name);
  });

  it("takes a narrower code and keeps instanceof through subclassing", () => {
    class WrongChain extends UpstreamError<"wrong_chain"> {
      override name = "WrongChain";
      constructor() {
        super("wrong chain", { code: "wrong_chain" });
      }
    }
    const error = new WrongChain();
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toBeInstanceOf(PresendError);
    expect(error.code).toBe("wrong_chain");
    expect(error.name).toBe("WrongChain");
  });
});
