import { describe, expect, it } from "vitest";
import type { PinRecord } from "../PinStore";
import { samplePin } from "../testing/pinStoreContract";
import { chooseReportKey } from "./chooseReportKey";

const header = (kid: string) =>
  Buffer.from(JSON.stringify({ alg: "ES256", kid, typ: "presend-report+jws" })).toString(
    "base64url",
  );
const signedBy = (kid: string) => `${header(kid)}..c2ln`;
const old = { ...samplePin.jwk, kid: "presend-2026-01" };
const pin: PinRecord = {
  ...samplePin,
  previous: [{ jwk: old, fingerprint: "old", until: "2026-07-01T00:00:00.000Z" }],
};

describe("chooseReportKey", () => {
  it("takes the pinned key for its own kid, and for a signature whose kid cannot be read", () => {
    expect(chooseReportKey(pin, signedBy(samplePin.jwk.kid), undefined)).toEqual({
      type: "key",
      jwk: samplePin.jwk,
    });
    expect(chooseReportKey(pin, "garbage", undefined)).toEqual({ type: "key", jwk: pin.jwk });
    expect(chooseReportKey(pin, null, undefined)).toEqual({ type: "key", jwk: pin.jwk });
  });

  it("takes a replaced key for a report made before it handed over, within a minute's drift", () => {
    expect(chooseReportKey(pin, signedBy(old.kid), "2026-06-30T12:00:00.000Z")).toEqual({
      type: "key",
      jwk: old,
    });
    expect(chooseReportKey(pin, signedBy(old.kid), "2026-07-01T00:00:59.000Z")).toEqual({
      type: "key",
      jwk: old,
    });
  });

  it("names the kid of a report made after its key handed over, or by a key never trusted", () => {
    expect(chooseReportKey(pin, signedBy(old.kid), "2026-07-02T00:00:00.000Z")).toMatchObject({
      type: "unknown",
      kid: old.kid,
      message: /after that key handed over/,
    });
    expect(chooseReportKey(pin, signedBy(old.kid), undefined)).toMatchObject({ type: "unknown" });
    expect(chooseReportKey(samplePin, signedBy("presend-2030-01"), undefined)).toMatchObject({
      type: "unknown",
      kid: "presend-2030-01",
      message: /neither the pinned key presend-2026-11 nor one it replaced/,
    });
  });
});
