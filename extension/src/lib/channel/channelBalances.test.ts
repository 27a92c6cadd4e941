import { describe, expect, it } from "vitest";
import { type ChannelBalance, channelLeft, readChannelBalances } from "./channelBalances";

const balance: ChannelBalance = {
  channelId: `0x${"ab".repeat(32)}`,
  apiUrl: "http://api.test",
  payer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  deposited: "50000",
  charged: "20000",
  updatedAt: "2025-06-01T12:00:00.000Z",
};

describe("readChannelBalances", () => {
  it("reads a well-formed list, and nothing (no channel) for anything else", () => {
    expect(readChannelBalances([balance])).toEqual([balance]);
    expect(readChannelBalances(undefined)).toEqual([]);
    expect(readChannelBalances({})).toEqual([]);
    expect(readChannelBalances([{ ...balance, charged: "-1" }])).toEqual([]);
    expect(readChannelBalances([{ ...balance, payer: "0x1234" }])).toEqual([]);
    expect(readChannelBalances([{ ...balance, channelId: "0xab" }])).toEqual([]);
    expect(readChannelBalances([balance, null])).toEqual([]);
    expect(readChannelBalances([{ ...balance, sessionEnded: true }])).toEqual([
      { ...balance, sessionEnded: true },
    ]);
    expect(readChannelBalances([{ ...balance, sessionEnded: "yes" }])).toEqual([]);
    const resyncedAt = "2025-06-01T12:05:00.000Z";
    expect(readChannelBalances([{ ...balance, resyncedAt }])).toEqual([{ ...balance, resyncedAt }]);
    expect(readChannelBalances([{ ...balance, resyncedAt: 1 }])).toEqual([]);
    expect(readChannelBalances([{ ...balance, deposited: "1.5" }])).toEqual([]);
    expect(readChannelBalances([{ ...balance, depositDay: 1 }])).toEqual([]);
  });

  it.each(Object.keys(balance))("reads a balance without %s as no channel", (field) => {
    const { [field as keyof ChannelBalance]: _omitted, ...incomplete } = balance;
    expect(readChannelBalances([incomplete])).toEqual([]);
  });

  it("says what is left, never less than nothing", () => {
    expect(channelLeft(balance)).toBe(30_000n);
    expect(channelLeft({ ...balance, charged: "60000" })).toBe(0n);
  });

  it("counts a voucher signed but not answered as spent", () => {
    expect(channelLeft({ ...balance, signed: "30000" })).toBe(20_000n);
    expect(channelLeft({ ...balance, signed: "10000" })).toBe(30_000n);
    expect(readChannelBalances([{ ...balance, signed: "30000" }])).toHaveLength(1);
    expect(readChannelBalances([{ ...balance, signed: "x" }])).toEqual([]);
    expect(
      readChannelBalances([{ ...balance, depositDay: "2025-06-01", depositCounted: "1" }]),
    ).toHaveLength(1);
    expect(readChannelBalances([{ ...balance, depositCounted: "-1" }])).toEqual([]);
  });
});
