import type { ChannelCloseResult } from "@presend/client";
import { createMemoryPinStore } from "@presend/client";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import type { SpendLedger } from "../storage/schemas";
import type { ChannelBalance } from "./channelBalances";
import type { ChannelSessionKey, ChannelStates } from "./channelItems";
import { closeChannels } from "./closeChannels";
import { createChannelAccess } from "./createChannelAccess";

const balance: ChannelBalance = {
  channelId: `0x${"ab".repeat(32)}`,
  apiUrl: "http://api.test",
  payer: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  deposited: "50000",
  charged: "20000",
  updatedAt: "2025-06-01T12:00:00.000Z",
};

function setup(
  balances: ChannelBalance[],
  held: { key: ChannelSessionKey; states: ChannelStates } | null = null,
) {
  const requests: string[] = [];
  const items = memoryItem<ChannelBalance[]>(balances);
  const deps = {
    fetch: (async (input: RequestInfo | URL) => {
      requests.push(String(input));
      throw new Error("offline");
    }) as typeof fetch,
    settings: async () => ({ apiUrl: "http://api.test/", dailyCapUnits: 1, disabledSites: [] }),
    pinStore: createMemoryPinStore(),
    balances: items,
    ledger: memoryItem<SpendLedger>({ day: "2025-06-01", spentUnits: 50_000 }),
    now: () => new Date("2025-06-01T12:00:00Z"),
    access: createChannelAccess({
      // By default a new browser session: no key, no channel records, only what the card showed.
      sessionKey: memoryItem<ChannelSessionKey | null>(held?.key ?? null),
      states: memoryItem<ChannelStates>(held?.states ?? {}),
      salts: memoryItem({}),
      balances: items,
      now: () => new Date(),
    }),
  };
  return { deps, requests };
}

describe("closeChannels", () => {
  it("says so when no channel is open", async () => {
    const { deps, requests } = setup([]);
    expect(await closeChannels(deps)).toEqual({
      type: "none",
      message: "No payment channel is open.",
    });
    expect(requests).toEqual([]);
  });

  it("closes a channel opened before the API in the settings changed, at the API it pays", async () => {
    // The popup offers every channel's rest back ("get $0.03 back"): one of another API than the
    // settings' now was answered "No payment channel is open" and its rest never asked for.
    const privateKey = `0x${"11".repeat(32)}` as const;
    const key = { privateKey, address: privateKeyToAccount(privateKey).address };
    const { deps, requests } = setup([{ ...balance, apiUrl: "http://other.test" }], {
      key,
      states: { [balance.channelId]: {} },
    });
    const outcome = await closeChannels(deps);
    expect(outcome.type).toBe("failed");
    expect(outcome.message).not.toBe("No payment channel is open.");
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.every((url) => url.startsWith("http://other.test/"))).toBe(true);
  });

  it("tells the truth about a channel whose session key ended with the browser: the server refunds it", async () => {
    const { deps, requests } = setup([balance]);
    const outcome = await closeChannels(deps);
    expect(outcome).toEqual({
      type: "failed",
      message:
        "The $0.03 left in an earlier channel (its browser session ended, or it fell out of step with the server) can no longer be closed from here; presend's server sends it back to your wallet after a day without checks.",
    });
    expect(requests).toEqual([]);
  });

  describe("a channel closed by the server's refund gives the daily cap back", () => {
    // The server's answer to the refund is the boundary faked here: the close's outcome is given.
    const privateKey = `0x${"11".repeat(32)}` as const;
    const key = { privateKey, address: privateKeyToAccount(privateKey).address };
    /** 50000 deposited and counted today, 20000 of it charged: 30000 left in the channel. */
    const counted = { ...balance, depositDay: "2025-06-01", depositCounted: "50000" };

    async function closedWith(refunded: string | null) {
      const { deps } = setup([counted], { key, states: { [balance.channelId]: {} } });
      const closed: ChannelCloseResult = { type: "closed", transaction: "0xfeed", refunded };
      const outcome = await closeChannels({
        ...deps,
        access: { ...deps.access, exclusive: (async () => closed) as typeof deps.access.exclusive },
      });
      return { outcome, spent: (await deps.ledger.getValue()).spentUnits };
    }

    it("by what the refund returned", async () => {
      const { outcome, spent } = await closedWith("10000");
      expect(outcome).toEqual({
        type: "closed",
        message: "Closed: $0.01 sent back to your wallet.",
      });
      expect(spent).toBe(40_000);
    });

    it("never by more than was left in the channel, whatever the refund says", async () => {
      // A refund saying 40000 (another deposit, or the server's mistake): only the 30000 left of
      // the deposit this cap counted comes off it, so the checks paid from it stay counted.
      expect((await closedWith("40000")).spent).toBe(20_000);
    });

    it("closes the channel it holds beside one whose session ended: the close did not fail, and says only what it did", async () => {
      // After a browser restart: an earlier channel without its key, and this session's new one.
      const ended = { ...balance, channelId: `0x${"cd".repeat(32)}`, sessionEnded: true as const };
      const { deps } = setup([counted, ended], { key, states: { [balance.channelId]: {} } });
      const closed: ChannelCloseResult = {
        type: "closed",
        transaction: "0xfeed",
        refunded: "30000",
      };
      const outcome = await closeChannels({
        ...deps,
        access: { ...deps.access, exclusive: (async () => closed) as typeof deps.access.exclusive },
      });
      expect(outcome).toEqual({
        type: "closed",
        message: "Closed: $0.03 sent back to your wallet.",
      });
    });

    it("by nothing when the refund says no amount", async () => {
      expect((await closedWith(null)).spent).toBe(50_000);
    });
  });
});
