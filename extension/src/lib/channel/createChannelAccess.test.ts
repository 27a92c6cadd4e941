import { recoverTypedDataAddress } from "viem";
import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import { type ChannelBalance, channelLeft } from "./channelBalances";
import type { ChannelSalts, ChannelSessionKey, ChannelStates } from "./channelItems";
import { createChannelAccess, endedChannelShownMs } from "./createChannelAccess";

const now = new Date("2025-06-01T12:00:00Z");
const payer = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const scope = { apiUrl: "http://api.test", payer } as const;
const channelId = `0x${"ab".repeat(32)}` as const;
/** The check's attested price, as the click gives it. */
const price = () => 10_000n;
const voucher = {
  domain: {
    name: "x402 Batch Settlement",
    version: "1",
    chainId: 8453,
    verifyingContract: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  },
  types: {
    Voucher: [
      { name: "channelId", type: "bytes32" },
      { name: "maxClaimableAmount", type: "uint128" },
    ],
  },
  primaryType: "Voucher",
  message: { channelId, maxClaimableAmount: 10_000n },
} as const;

function setup() {
  const sessionKey = memoryItem<ChannelSessionKey | null>(null);
  const states = memoryItem<ChannelStates>({});
  const balances = memoryItem<ChannelBalance[]>([]);
  const salts = memoryItem<ChannelSalts>({});
  let made = 0;
  const access = createChannelAccess({
    sessionKey,
    states,
    salts,
    balances,
    now: () => now,
    newKey: () => {
      made += 1;
      return `0x${String(made).repeat(64)}`;
    },
  });
  return { access, sessionKey, states, salts, balances, made: () => made };
}

describe("createChannelAccess", () => {
  it("makes the session key once, keeps it in its session item, and signs vouchers with it", async () => {
    const { access, sessionKey, made } = setup();
    const [a, b] = await Promise.all([
      access.options(scope, 50_000n, price),
      access.options(scope, 50_000n, price),
    ]);
    expect(made()).toBe(1);
    expect(a.voucherSigner.address).toBe(b.voucherSigner.address);
    expect(sessionKey.value()?.address).toBe(a.voucherSigner.address);
    expect(a.deposit).toBe(50_000n);
    const signature = await a.voucherSigner.signTypedData(voucher);
    expect(await recoverTypedDataAddress({ ...voucher, signature })).toBe(a.voucherSigner.address);
  });

  it("signs vouchers only, and only when the caller's gate lets it", async () => {
    const { access } = setup();
    const { voucherSigner } = await access.options(scope, 1n, price);
    const transfer = { ...voucher, primaryType: "TransferWithAuthorization" };
    await expect(voucherSigner.signTypedData(transfer)).rejects.toThrow(/vouchers only/);
    const gated = await access.options(scope, 1n, () => {
      throw new Error("no click");
    });
    await expect(gated.voucherSigner.signTypedData(voucher)).rejects.toThrow("no click");
  });

  it("keeps the scheme's channel records in the session item and shows their balance", async () => {
    const { access, states, balances } = setup();
    const { storage } = await access.options(scope, 1n, price);
    await storage?.set(channelId.toUpperCase().replace("0X", "0x"), {
      balance: "50000",
      chargedCumulativeAmount: "20000",
    });
    expect(await storage?.get(channelId)).toEqual({
      balance: "50000",
      chargedCumulativeAmount: "20000",
    });
    expect(states.value()).toEqual({
      [channelId]: { balance: "50000", chargedCumulativeAmount: "20000" },
    });
    expect(balances.value()).toEqual([
      {
        channelId,
        apiUrl: "http://api.test",
        payer,
        deposited: "50000",
        charged: "20000",
        updatedAt: now.toISOString(),
        depositDay: now.toISOString().slice(0, 10),
        depositCounted: "50000",
      },
    ]);
    expect(await access.holds(channelId)).toBe(true);
    // A full refund deletes the record: nothing is shown, nothing is held.
    await storage?.delete(channelId);
    expect(states.value()).toEqual({});
    expect(balances.value()).toEqual([]);
    expect(await access.holds(channelId)).toBe(false);
  });

  it("keeps each scope's channel salt for the next click's client; starting over forgets them", async () => {
    const { access, salts } = setup();
    const salt = `0x${"5a".repeat(32)}` as const;
    // A close moved its scope to a new channel: the next check (another client) pays there.
    await (await access.options(scope, 0n, () => 0n)).saltStore?.write(salt);
    expect(await (await access.options(scope, 50_000n, price)).saltStore?.read()).toBe(salt);
    // Another account (or API) keeps the package's zero salt until it moves.
    const other = { ...scope, payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } as const;
    expect(await (await access.options(other, 50_000n, price)).saltStore?.read()).toBeNull();
    await access.startOver();
    expect(salts.value()).toEqual({});
    expect(await (await access.options(scope, 50_000n, price)).saltStore?.read()).toBeNull();
  });

  it("notes where the deposits count in the daily cap: a top-up adds to the day it is sent", async () => {
    let clock = new Date("2025-06-01T12:00:00Z");
    const balances = memoryItem<ChannelBalance[]>([]);
    const access = createChannelAccess({
      sessionKey: memoryItem<ChannelSessionKey | null>(null),
      states: memoryItem<ChannelStates>({}),
      salts: memoryItem<ChannelSalts>({}),
      balances,
      now: () => clock,
    });
    const { storage } = await access.options(scope, 1n, price);
    const counted = () => {
      const [shown] = balances.value();
      return [shown?.depositDay, shown?.depositCounted];
    };
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "10000" });
    expect(counted()).toEqual(["2025-06-01", "50000"]);
    // A voucher changes nothing of it; a top-up the same day adds to it.
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "20000" });
    await storage?.set(channelId, { balance: "80000", chargedCumulativeAmount: "30000" });
    expect(counted()).toEqual(["2025-06-01", "80000"]);
    // A top-up the next day counts on that day, alone.
    clock = new Date("2025-06-02T08:00:00Z");
    await storage?.set(channelId, { balance: "100000", chargedCumulativeAmount: "40000" });
    expect(counted()).toEqual(["2025-06-02", "20000"]);
  });

  it("counts a voucher in its channel's balance once signed, until the server's answer says what was charged", async () => {
    const { access, balances } = setup();
    const { storage, voucherSigner } = await access.options(scope, 1n, price);
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "0" });
    await voucherSigner.signTypedData(voucher);
    // The answer was lost: the balance does not promise the check back.
    expect(balances.value()[0]).toMatchObject({ charged: "0", signed: "10000" });
    expect(channelLeft(balances.value()[0] as ChannelBalance)).toBe(40_000n);
    // Answered: charged catches up and the note goes.
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "10000" });
    expect(balances.value()[0]?.signed).toBeUndefined();
    expect(channelLeft(balances.value()[0] as ChannelBalance)).toBe(40_000n);
  });

  it("runs channel payments one at a time (vouchers are cumulative)", async () => {
    const { access } = setup();
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const first = access.exclusive(
      () =>
        new Promise<void>((resolve) => {
          order.push("first starts");
          releaseFirst = () => {
            order.push("first ends");
            resolve();
          };
        }),
    );
    const second = access.exclusive(async () => {
      order.push("second starts");
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["first starts"]);
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first starts", "first ends", "second starts"]);
  });

  it("does not hold a channel whose key ended with the browser session", async () => {
    const { access, sessionKey } = setup();
    const { storage } = await access.options(scope, 1n, price);
    await storage?.set(channelId, { balance: "1" });
    await sessionKey.setValue(null);
    expect(await access.holds(channelId)).toBe(false);
  });
});

describe("createChannelAccess after the browser restarted", () => {
  it("marks the balances of channels whose key and record ended with the last session", async () => {
    const { access, balances, states } = setup();
    const { storage } = await access.options(scope, 1n, price);
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "10000" });
    await access.markEndedSessions();
    expect(balances.value()[0]?.sessionEnded).toBeUndefined();
    // What a new browser session finds: the shown balance, no record, no key.
    await states.setValue({});
    await access.markEndedSessions();
    expect(balances.value()[0]).toMatchObject({ channelId, sessionEnded: true });
  });

  it("stops showing an ended channel once the server's idle refund has sent the rest back", async () => {
    const { access, balances } = setup();
    const shown = { channelId, apiUrl: "http://api.test", payer, deposited: "50000", charged: "0" };
    await balances.setValue([
      { ...shown, updatedAt: new Date(now.getTime() - endedChannelShownMs + 60_000).toISOString() },
      {
        ...shown,
        channelId: `0x${"cd".repeat(32)}`,
        updatedAt: new Date(now.getTime() - endedChannelShownMs).toISOString(),
      },
    ]);
    await access.markEndedSessions();
    expect(balances.value().map((b) => [b.channelId, b.sessionEnded])).toEqual([[channelId, true]]);
  });
});

describe("createChannelAccess out of step with the server", () => {
  it("starts over with a new key: the old channels pay no more and say so", async () => {
    const { access, sessionKey, states, balances } = setup();
    const first = await access.options(scope, 1n, price);
    await first.storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "10000" });
    await access.startOver();
    expect(sessionKey.value()).toBeNull();
    expect(states.value()).toEqual({});
    expect(balances.value()).toMatchObject([{ channelId, sessionEnded: true }]);
    expect(await access.holds(channelId)).toBe(false);
    const next = await access.options(scope, 1n, price);
    expect(next.voucherSigner.address).not.toBe(first.voucherSigner.address);
    expect(sessionKey.value()?.address).toBe(next.voucherSigner.address);
  });
});

describe("createChannelAccess resyncing with the server", () => {
  const voucherAt = (maxClaimableAmount: bigint) => ({
    ...voucher,
    message: { channelId, maxClaimableAmount },
  });
  /** A channel whose server counted 20000 and whose record here says so. */
  async function opened() {
    const made = setup();
    const { storage } = await made.access.options(scope, 50_000n, price);
    await storage?.set(channelId, { balance: "50000", chargedCumulativeAmount: "20000" });
    return made;
  }
  /** What the scheme writes once it verified the server's voucher signature is this key's. */
  const provenState = (charged: bigint) => ({
    balance: "50000",
    chargedCumulativeAmount: String(charged),
    signedMaxClaimable: String(charged),
    signature: `0x${charged.toString(16).padStart(130, "0")}` as const,
    totalClaimed: "0",
  });

  it("reads a channel it holds no record of as a new one, so the scheme reads no chain for it", async () => {
    const { access } = setup();
    const { storage } = await access.options(scope, 1n, price);
    expect(await storage?.get(channelId)).toEqual({});
  });

  it("after a lost answer, signs once more at the server's proven state plus the price, and says it re-synced", async () => {
    const { access, balances } = await opened();
    // A check whose answer was lost: the key signed 30000, the record still says 20000.
    const lost = await access.options(scope, 50_000n, price);
    await lost.voucherSigner.signTypedData(voucherAt(30_000n));
    // The next click: its voucher counts from the record, the server refuses it as out of step
    // and proves 30000 with the lost voucher's signature; the scheme resyncs and signs again.
    const click = await access.options(scope, 50_000n, price);
    await click.voucherSigner.signTypedData(voucherAt(30_000n));
    await click.storage?.set(channelId, provenState(30_000n));
    expect(balances.value()[0]).toMatchObject({ charged: "30000", resyncedAt: now.toISOString() });
    await click.voucherSigner.signTypedData(voucherAt(40_000n));
    expect(balances.value()[0]).toMatchObject({ charged: "30000", signed: "40000" });
    await expect(click.voucherSigner.signTypedData(voucherAt(40_000n))).rejects.toThrow(
      "Already paid for this check.",
    );
  });

  it("builds on a state proven by a voucher signed before the click that this browser lost", async () => {
    const { access } = await opened();
    const click = await access.options(scope, 50_000n, price);
    await click.voucherSigner.signTypedData(voucherAt(30_000n));
    await click.storage?.set(channelId, provenState(40_000n));
    await expect(click.voucherSigner.signTypedData(voucherAt(50_000n))).resolves.toMatch(/^0x/);
  });

  it("refuses to build on a state proven only by the click's own voucher: a click never pays two checks", async () => {
    const { access } = await opened();
    const click = await access.options(scope, 50_000n, price);
    await click.voucherSigner.signTypedData(voucherAt(30_000n));
    // A server that kept the voucher and answered "out of step" with it as its proof.
    await click.storage?.set(channelId, provenState(30_000n));
    await expect(click.voucherSigner.signTypedData(voucherAt(40_000n))).rejects.toMatchObject({
      code: "channel_out_of_step",
    });
  });

  it("signs no voucher above what the key signed plus the price, nor without a price", async () => {
    const { access } = await opened();
    const click = await access.options(scope, 50_000n, price);
    await expect(click.voucherSigner.signTypedData(voucherAt(40_000n))).rejects.toMatchObject({
      code: "session_key_refused",
    });
    // One base unit above the price is already refused; the price itself is signed.
    const over = await access.options(scope, 50_000n, price);
    await expect(over.voucherSigner.signTypedData(voucherAt(30_001n))).rejects.toMatchObject({
      code: "session_key_refused",
    });
    const exact = await access.options(scope, 50_000n, price);
    await expect(exact.voucherSigner.signTypedData(voucherAt(30_000n))).resolves.toMatch(/^0x/);
    const unpriced = await access.options(scope, 50_000n, () => null);
    await expect(unpriced.voucherSigner.signTypedData(voucherAt(30_000n))).rejects.toThrow(
      "No attested price",
    );
  });
});
