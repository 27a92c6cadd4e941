import { describe, expect, it } from "vitest";
import type { Channel, ChannelStore } from "./channelStore";

const hex = (digit: string, length: number) => `0x${digit.repeat(length)}` as `0x${string}`;

/** A stored channel as the `@x402/evm` server scheme writes one. */
export function sampleChannel(id: string, charged: bigint): Channel {
  return {
    channelId: id,
    channelConfig: {
      payer: hex("1", 40),
      payerAuthorizer: hex("2", 40),
      receiver: hex("3", 40),
      receiverAuthorizer: hex("4", 40),
      token: hex("5", 40),
      withdrawDelay: 900,
      salt: hex("0", 64),
    },
    chargedCumulativeAmount: charged.toString(),
    signedMaxClaimable: charged.toString(),
    signature: hex("6", 130),
    balance: "1000000",
    totalClaimed: "0",
    withdrawRequestedAt: 0,
    refundNonce: 0,
    lastRequestTimestamp: 1_700_000_000_000,
  };
}

/**
 * The behaviour every ChannelStore must have: the `@x402/evm` ChannelStorage rules (an update
 * sees the current channel and returns the next; the same object leaves it unchanged, undefined
 * deletes it), atomic updates across every opener of the same data, durability, and the charge
 * index the claims settle records by.
 * @example describeChannelStore("sqlite", async () => ({ open, cleanup }));
 */
export function describeChannelStore(
  name: string,
  setup: () => Promise<{
    /** Opens the same data (every call another connection). */
    open: () => Promise<ChannelStore>;
    cleanup: () => Promise<void>;
  }>,
): void {
  describe(`ChannelStore contract: ${name}`, () => {
    const withStores = async (run: (open: () => Promise<ChannelStore>) => Promise<void>) => {
      const { open, cleanup } = await setup();
      const opened: ChannelStore[] = [];
      try {
        await run(async () => {
          const store = await open();
          opened.push(store);
          return store;
        });
      } finally {
        for (const store of opened) await store.close();
        await cleanup();
      }
    };
    const id = hex("a", 64);

    it("creates, updates, leaves unchanged and deletes a channel, as the scheme asks", () =>
      withStores(async (open) => {
        const store = await open();
        expect(await store.get(id)).toBeUndefined();
        const created = await store.updateChannel(id, () => sampleChannel(id, 10n));
        expect(created.status).toBe("updated");
        expect(await store.get(id.toUpperCase().replace("0X", "0x"))).toEqual(
          sampleChannel(id, 10n),
        );
        const same = await store.updateChannel(id, (current) => current);
        expect(same.status).toBe("unchanged");
        expect(same.channel).toEqual(sampleChannel(id, 10n));
        expect(await store.list()).toEqual([sampleChannel(id, 10n)]);
        expect((await store.updateChannel(id, () => undefined)).status).toBe("deleted");
        expect(await store.get(id)).toBeUndefined();
        expect((await store.updateChannel(id, () => undefined)).status).toBe("unchanged");
      }));

    it("keeps channels and charges across a reopen", () =>
      withStores(async (open) => {
        const first = await open();
        await first.updateChannel(id, () => sampleChannel(id, 30n));
        await first.addCharge({
          key: { payer: hex("1", 40), nonce: hex("b", 64) },
          channelId: id,
          cumulative: 30n,
        });
        await first.close();
        const second = await open();
        expect((await second.get(id))?.chargedCumulativeAmount).toBe("30");
        expect(await second.unclaimedCharges(id)).toHaveLength(1);
      }));

    it("never loses an update when two connections charge the same channel at once", () =>
      withStores(async (open) => {
        const stores = [await open(), await open()];
        await stores[0]?.updateChannel(id, () => sampleChannel(id, 0n));
        const charge = (store: ChannelStore) =>
          store.updateChannel(id, (current) =>
            current
              ? {
                  ...current,
                  chargedCumulativeAmount: String(BigInt(current.chargedCumulativeAmount) + 1n),
                }
              : current,
          );
        await Promise.all(
          Array.from({ length: 40 }, (_, index) => charge(stores[index % 2] as ChannelStore)),
        );
        expect((await stores[1]?.get(id))?.chargedCumulativeAmount).toBe("40");
      }));

    it("indexes charges: commits them, drops only uncommitted ones, and marks claims", () =>
      withStores(async (open) => {
        const store = await open();
        const key = (digit: string) => ({ payer: hex("1", 40), nonce: hex(digit, 64) });
        await store.addCharge({ key: key("c"), channelId: id, cumulative: 20n });
        await store.addCharge({ key: key("d"), channelId: id, cumulative: 10n });
        await store.addCharge({ key: key("e"), channelId: hex("f", 64), cumulative: 5n });
        await store.commitCharge(key("c"));
        await store.dropCharge(key("c"));
        await store.dropCharge(key("d"));
        expect(await store.unclaimedCharges(id)).toEqual([
          { key: key("c"), channelId: id, cumulative: 20n, committed: true, claimedTx: null },
        ]);
        expect((await store.unclaimedCharges()).map((charge) => charge.cumulative)).toEqual([
          5n,
          20n,
        ]);
        await store.markClaimed([key("c")], hex("9", 64));
        expect(await store.unclaimedCharges(id)).toEqual([]);
      }));

    it("drops an unclaimable charge, committed or not", () =>
      withStores(async (open) => {
        const store = await open();
        const key = (digit: string) => ({ payer: hex("1", 40), nonce: hex(digit, 64) });
        await store.addCharge({ key: key("a"), channelId: id, cumulative: 10n });
        await store.addCharge({ key: key("b"), channelId: id, cumulative: 20n });
        await store.addCharge({ key: key("c"), channelId: id, cumulative: 30n });
        await store.commitCharge(key("a"));
        await store.commitCharge(key("b"));
        await store.markClaimed([key("a")], hex("9", 64));
        for (const digit of ["a", "b", "c"]) await store.dropUnclaimable(key(digit));
        expect(await store.unclaimedCharges(id)).toEqual([]);
      }));
  });
}
