import { describe, expect, it } from "vitest";
import { isUserRejection } from "./isUserRejection";

describe("isUserRejection", () => {
  it("finds code 4001 in a wrapped error", () => {
    expect(isUserRejection({ name: "SignTypedDataError", cause: { cause: { code: 4001 } } })).toBe(
      true,
    );
    expect(isUserRejection({ name: "UserRejectedRequestError" })).toBe(true);
  });

  it("does not mistake other failures for a rejection", () => {
    expect(isUserRejection(new Error("network down"))).toBe(false);
    expect(isUserRejection({ code: 4902 })).toBe(false);
    expect(isUserRejection(null)).toBe(false);
  });
});
