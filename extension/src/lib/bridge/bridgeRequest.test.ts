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

  it("accepts a read-only call with a chain, an address and hex data, and nothing looser", () => {
    const call = {
      id: "4",
      kind: "call",
      chainId: 8453,
      to: `0x${"1".repeat(40)}`,
      data: "0xabcd",
    };
    expect(BridgeRequestSchema.safeParse(call)).toEqual({ success: true, data: call });
    expect(BridgeRequestSchema.safeParse({ ...call, data: "0xabc" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ ...call, to: "0x1" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ ...call, chainId: 1.5 }).success).toBe(false);
  });

  it("rejects other kinds and a sign request without typed data", () => {
    expect(BridgeRequestSchema.safeParse({ id: "1", kind: "send" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ id: "1", kind: "sign" }).success).toBe(false);
    expect(BridgeRequestSchema.safeParse({ kind: "info" }).success).toBe(false);
  });
});
