import { describe, expect, it } from "vitest";
import { BridgeRequestSchema } from "./bridgeRequest";

describe("BridgeRequestSchema", () => {
  it("accepts the three requests the isolated side makes", () => {
    for (const request of [
      { id: "1", kind: "info" },
      { id: "2", kind: "account" },
      { id: "3", kind: "sign", typedData: "{}" },
    ]) {
      expect(BridgeRequestSchema.safeParse(request)).toEqual({ success: true, data: request });
    }
  });

  it("rejects other kinds and a sign request without typed data", () => {
    expect(BridgeRequestSchema.safeParse({ id: "1", kind: "send" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ id: "1", kind: "sign" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ kind: "info" }).success).toBe(false);
  });
});
