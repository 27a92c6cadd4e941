import { toHex } from "viem";
import { describe, expect, it } from "vitest";
import { createSettlementBroadcasts } from "./settlementBroadcasts";

const payer = "0x00000000000000000000000000000000000000AA";
const nonce = (index: number) => toHex(index, { size: 32 });
const hash = (index: number) => toHex(index + 1_000_000, { size: 32 });

describe("createSettlementBroadcasts", () => {
  it("holds only the window's settlements, however many authorizations were settled before", () => {
    let clock = 0;
    const broadcasts = createSettlementBroadcasts({ keptMs: 60_000, now: () => clock });
    // A facilitator settling one payment a second for an hour.
    for (let index = 0; index < 3_600; index++) {
      const ended = broadcasts.settling(payer, nonce(index));
      broadcasts.broadcast(payer, nonce(index), hash(index));
      ended();
      clock += 1_000;
    }
    // The last minute's, not the hour's.
    expect(broadcasts.size()).toBeLessThanOrEqual(61);
    expect(broadcasts.of(payer, nonce(3_599))).toBe(hash(3_599));
    expect(broadcasts.of(payer.toLowerCase(), nonce(3_599).toUpperCase())).toBe(hash(3_599));
    expect(broadcasts.of(payer, nonce(0))).toBeUndefined();
  });

  it("says null only for a settlement it saw send nothing, undefined for one it does not know", () => {
    let clock = 0;
    const broadcasts = createSettlementBroadcasts({ keptMs: 60_000, now: () => clock });
    broadcasts.settling(payer, nonce(1))();
    expect(broadcasts.of(payer, nonce(1))).toBeNull();
    expect(broadcasts.of(payer, nonce(2))).toBeUndefined();
    clock += 60_000;
    expect(broadcasts.of(payer, nonce(1))).toBeUndefined();
  });

  it("never forgets a settlement still running, however long it runs", () => {
    let clock = 0;
    const broadcasts = createSettlementBroadcasts({ keptMs: 60_000, now: () => clock });
    const slow = broadcasts.settling(payer, nonce(1));
    broadcasts.broadcast(payer, nonce(1), hash(1));
    for (let index = 2; index < 200; index++) {
      broadcasts.settling(payer, nonce(index))();
      clock += 10_000;
    }
    expect(broadcasts.of(payer, nonce(1))).toBe(hash(1));
    // The same authorization settled again meanwhile keeps it held until both calls end.
    const again = broadcasts.settling(payer, nonce(1));
    slow();
    clock += 120_000;
    broadcasts.settling(payer, nonce(500))();
    expect(broadcasts.of(payer, nonce(1))).toBe(hash(1));
    again();
    expect(broadcasts.of(payer, nonce(1))).toBe(hash(1));
    clock += 60_001;
    broadcasts.settling(payer, nonce(501))();
    expect(broadcasts.of(payer, nonce(1))).toBeUndefined();
    expect(broadcasts.size()).toBe(1);
  });
});
