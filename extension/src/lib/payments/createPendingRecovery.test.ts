import { describe, expect, it } from "vitest";
import { memoryItem } from "../storage/memoryItem";
import type { PendingRecovery } from "../storage/schemas";
import { createPendingRecovery, recoveriesKept } from "./createPendingRecovery";

const payer = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const nonce = `0x${"AB".repeat(32)}`;
const check = { apiUrl: "http://api.test", route: "check", address, chain: "base" } as const;
const now = new Date("2025-06-01T12:00:00Z");

function setup(existing: PendingRecovery[] = []) {
  const recoveries = memoryItem<PendingRecovery[]>(existing);
  let ids = 0;
  const log = createPendingRecovery(check, {
    recoveries,
    randomId: () => `r${++ids}`,
    now: () => now,
  });
  return { recoveries, log };
}

const transfer = {
  primaryType: "TransferWithAuthorization",
  message: { from: payer, to: payTo, value: 10_000n, nonce },
};

describe("createPendingRecovery", () => {
  it("writes a signed transfer down with its payer and nonce before it is sent", async () => {
    const { recoveries, log } = setup();
    await log.recordSigned(transfer);
    expect(recoveries.value()).toEqual([
      {
        id: "r1",
        ...check,
        payer,
        nonce: nonce.toLowerCase(),
        transaction: null,
        amount: "10000",
        payTo,
        sentAt: now.toISOString(),
        lastAttempt: null,
      },
    ]);
  });

  it("leaves a channel deposit out: it is no payment of its own, its vouchers are", async () => {
    const { recoveries, log } = setup();
    await log.recordSigned({ ...transfer, primaryType: "ReceiveWithAuthorization" });
    expect(recoveries.value()).toEqual([]);
    await log.recordSent({ payer, nonce: nonce as `0x${string}`, amount: "10000", payTo });
    expect(recoveries.value().map((r) => r.nonce)).toEqual([nonce.toLowerCase()]);
  });

  it("a voucher sent again after a refusal replaces the first attempt's nonce: one entry per check", async () => {
    const { recoveries, log } = setup();
    await log.recordSent({ payer, nonce: nonce as `0x${string}`, amount: "10000", payTo });
    const retried = `0x${"cd".repeat(32)}` as const;
    await log.recordSent({ payer, nonce: retried, amount: "10000", payTo });
    expect(recoveries.value()).toHaveLength(1);
    expect(recoveries.value()[0]).toMatchObject({ id: "r1", nonce: retried, payer, payTo });
  });

  it("notes how an attempt ended, then forgets the payment once done", async () => {
    const { recoveries, log } = setup();
    expect(await log.settle("done")).toBeUndefined();
    await log.recordSigned(transfer);
    const lastAttempt = { at: now.toISOString(), state: "unknown" as const, message: "lost" };
    expect(await log.settle({ lastAttempt })).toBe("r1");
    expect(recoveries.value()[0]?.lastAttempt).toEqual(lastAttempt);
    expect(await log.settle("done")).toBe("r1");
    expect(recoveries.value()).toEqual([]);
  });

  it("keeps the newest entries only, and never touches another check's", async () => {
    const { log: other, recoveries } = setup();
    await other.recordSigned(transfer);
    const older = recoveries.value();
    const { recoveries: full, log } = setup(
      Array.from(
        { length: recoveriesKept },
        (_, i) => ({ ...older[0], id: `old${i}` }) as PendingRecovery,
      ),
    );
    await log.recordSigned(transfer);
    expect(full.value()).toHaveLength(recoveriesKept);
    expect(full.value()[0]?.id).toBe("r1");
    await log.settle("done");
    expect(full.value().map((r) => r.id)).not.toContain("r1");
    expect(full.value()).toHaveLength(recoveriesKept - 1);
  });
});
