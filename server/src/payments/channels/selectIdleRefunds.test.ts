import { describe, expect, it } from "vitest";
import { sampleChannel } from "./channelStoreContract";
import { selectIdleRefunds } from "./selectIdleRefunds";

const idleMs = 24 * 3_600_000;
const lastRequest = sampleChannel("0x01", 0n).lastRequestTimestamp;

/** A channel last used at `lastRequestTimestamp`, holding `balance`, charged `charged`. */
function channel(id: string, charged: bigint, balance: bigint, lastRequestTimestamp: number) {
  return { ...sampleChannel(id, charged), balance: balance.toString(), lastRequestTimestamp };
}

describe("selectIdleRefunds", () => {
  it("refunds a channel idle for the whole period that still holds more than was charged", () => {
    const idle = channel("0xaa", 300n, 1_000n, lastRequest);
    expect(selectIdleRefunds([idle], { now: lastRequest + idleMs, idleMs })).toEqual([idle]);
    expect(selectIdleRefunds([idle], { now: lastRequest + 2 * idleMs, idleMs })).toEqual([idle]);
    // A single unit left is still the payer's to get back.
    const oneUnitLeft = channel("0xab", 999n, 1_000n, lastRequest);
    expect(selectIdleRefunds([oneUnitLeft], { now: lastRequest + idleMs, idleMs })).toEqual([
      oneUnitLeft,
    ]);
  });

  it("leaves a channel used within the period alone (its payer is still checking)", () => {
    const recent = channel("0xbb", 300n, 1_000n, lastRequest);
    expect(selectIdleRefunds([recent], { now: lastRequest + idleMs - 1, idleMs })).toEqual([]);
  });

  it("leaves a fully spent channel alone, however idle (nothing would go back)", () => {
    const spent = channel("0xcc", 1_000n, 1_000n, lastRequest);
    expect(selectIdleRefunds([spent], { now: lastRequest + 10 * idleMs, idleMs })).toEqual([]);
  });

  it("picks only the idle channels with a rest out of a mixed list", () => {
    const now = lastRequest + idleMs;
    const idle = channel("0x01", 0n, 500n, lastRequest);
    const recent = channel("0x02", 0n, 500n, now - 1_000);
    const spent = channel("0x03", 500n, 500n, lastRequest);
    expect(selectIdleRefunds([idle, recent, spent], { now, idleMs })).toEqual([idle]);
  });
});
