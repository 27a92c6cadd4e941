import { InMemoryChannelStorage } from "@x402/evm/batch-settlement/server";
import { describe, expect, it } from "vitest";
import { sampleChannel } from "./channelStoreContract";
import type { EscrowChannel } from "./createChannelChain";
import { syncWithEscrow } from "./syncWithEscrow";

const now = 1_800_000_000_000;
const id = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

/** A store holding these channels, and an escrow answering these states (an Error: unreadable). */
async function world(
  channels: ReturnType<typeof sampleChannel>[],
  escrow: Record<string, EscrowChannel | Error>,
) {
  const store = new InMemoryChannelStorage();
  for (const channel of channels) await store.updateChannel(channel.channelId, () => channel);
  const asked: string[] = [];
  const chain = {
    async channel(channelId: string) {
      asked.push(channelId);
      const state = escrow[channelId];
      if (state === undefined || state instanceof Error) throw state ?? new Error("unknown");
      return state;
    },
  };
  const errors: unknown[] = [];
  const sync = () =>
    syncWithEscrow(channels, { store, chain, onError: (error) => errors.push(error), now });
  return { store, asked, errors, sync };
}

describe("syncWithEscrow", () => {
  it("claims a channel whose escrow holds what was charged as stored, and refreshes its view", async () => {
    const open = sampleChannel(id(1), 300n);
    const { store, sync } = await world([open], {
      [id(1)]: { balance: 1_000n, totalClaimed: 100n, withdrawRequestedAt: 0 },
    });
    const [target] = await sync();
    expect(target).toMatchObject({ chargedCumulativeAmount: "300", totalClaimed: "100" });
    expect(await store.get(id(1))).toMatchObject({
      balance: "1000",
      totalClaimed: "100",
      withdrawRequestedAt: 0,
      onchainSyncedAt: now,
    });
  });

  it("cuts a claim to what the escrow still holds once its payer withdrew, and keeps the withdrawal", async () => {
    // Charged 300, but the payer's finalized withdrawal left 200: a claim of 300 would revert,
    // and every other channel's vouchers in the same transaction with it.
    const withdrawn = sampleChannel(id(2), 300n);
    const { store, sync } = await world([withdrawn], {
      [id(2)]: { balance: 200n, totalClaimed: 100n, withdrawRequestedAt: 1_799_999_000 },
    });
    const [target] = await sync();
    expect(target).toMatchObject({ chargedCumulativeAmount: "200", totalClaimed: "100" });
    expect(await store.get(id(2))).toMatchObject({
      balance: "200",
      chargedCumulativeAmount: "300",
      withdrawRequestedAt: 1_799_999_000,
    });
  });

  it("leaves out a channel the escrow can pay nothing more, and one refunded meanwhile", async () => {
    const emptied = sampleChannel(id(3), 300n);
    const dropped = sampleChannel(id(4), 300n);
    const { store, sync } = await world([emptied, dropped], {
      [id(3)]: { balance: 100n, totalClaimed: 100n, withdrawRequestedAt: 0 },
      [id(4)]: { balance: 1_000n, totalClaimed: 0n, withdrawRequestedAt: 0 },
    });
    await store.updateChannel(id(4), () => undefined);
    expect(await sync()).toEqual([]);
  });

  it("reads only channels with vouchers to claim, and keeps one it cannot read as stored", async () => {
    const claimed = { ...sampleChannel(id(5), 300n), totalClaimed: "300" };
    const unread = sampleChannel(id(6), 300n);
    const { asked, errors, sync } = await world([claimed, unread], {
      [id(6)]: new Error("endpoint down"),
    });
    expect(await sync()).toEqual([claimed, unread]);
    expect(asked).toEqual([id(6)]);
    expect(errors).toHaveLength(1);
  });
});
